'use client';

import { useEffect, useRef } from 'react';

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'textarea:not([disabled])',
  'select:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.getClientRects().length > 0 && !el.closest('[inert]'));
}

/**
 * A native modal <dialog> driven by `open`: showModal() makes the rest of the page inert and Esc
 * fires `cancel`. On top of that: Tab and Shift+Tab wrap inside the dialog (natively they step
 * out to the browser's own UI once before wrapping), and closing puts focus back on the element
 * that had it before the dialog opened when focus would otherwise be lost (content unmounted with
 * the close, or the element that opened it re-rendered), and a late `close` event from an earlier
 * close does not reach the owner's onClose once the dialog is open again.
 */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      d.showModal();
    }
    if (!open && d.open) {
      d.close();
      const back = returnTo.current;
      returnTo.current = null;
      const lost = !document.activeElement || document.activeElement === document.body || d.contains(document.activeElement);
      if (back?.isConnected && lost) back.focus();
    }
  }, [open]);

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Tab' || e.defaultPrevented) return;
      const items = focusables(d);
      if (items.length === 0) return;
      const first = items[0];
      const last = items[items.length - 1];
      const active = document.activeElement;
      if (e.shiftKey && (active === first || active === d)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && active === last) {
        e.preventDefault();
        first.focus();
      }
    };
    // `close` is fired from a queued task: the one from an earlier close can arrive after the dialog
    // opened again (Esc, then at once the next citation or card), and must not close the new one.
    const onStaleClose = (e: Event) => {
      if (d.open) e.stopImmediatePropagation();
    };
    d.addEventListener('keydown', onKey);
    d.addEventListener('close', onStaleClose, { capture: true });
    return () => {
      d.removeEventListener('keydown', onKey);
      d.removeEventListener('close', onStaleClose, { capture: true });
    };
  }, []);

  return ref;
}
