'use client';

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Icon } from '@/components/ui/icons';
import { PageImage, type Highlight } from './page-image';

/** Zoom as CSS pixels per PDF point: 96/72 is the printed size ("100 %"). */
const ACTUAL = 96 / 72;
const MIN = 0.2;
const MAX = 6;
const STEP = 1.25;

type Zoom = { fit: 'page' | 'width' } | { scale: number };

/**
 * A page that fits the width it is given, scrolled to the highlight, on every screen size
 * ("fit page" leaves body text ~6 px tall on a desktop, print size crops both sides of a phone
 * screen; at fit-width no line needs sideways panning). It zooms on demand with the buttons, Ctrl
 * + wheel, a two-finger pinch or + / − keys, fits the whole page with the fit button, rotates in
 * quarter turns for sideways scans, and swaps in a sharper render when zoomed in.
 */
export function ZoomablePage({
  manualId,
  page,
  width,
  height,
  highlight,
  keyboard = false,
  className = '',
}: {
  manualId: string;
  page: number;
  width: number;
  height: number;
  highlight: Highlight | null;
  keyboard?: boolean;
  className?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [space, setSpace] = useState<{ w: number; h: number } | null>(null);
  const [zoom, setZoom] = useState<Zoom>({ fit: 'width' });
  const [rotation, setRotation] = useState(0);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setSpace({ w: el.clientWidth - 16, h: el.clientHeight - 16 });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const sideways = rotation % 180 !== 0;
  const [w, h] = sideways ? [height, width] : [width, height];
  const fitWidth = space ? Math.max(MIN, space.w / w) : 1;
  const fitPage = space ? Math.max(MIN, Math.min(space.w / w, space.h / h)) : 1;
  const scale = 'fit' in zoom ? { page: fitPage, width: fitWidth }[zoom.fit] : zoom.scale;
  // Event handlers (wheel, pinch, keys) read the current scale without re-subscribing.
  const scaleRef = useRef(scale);
  useLayoutEffect(() => {
    scaleRef.current = scale;
  });

  const zoomBy = useCallback((factor: number) => setZoom({ scale: Math.min(MAX, Math.max(MIN, scaleRef.current * factor)) }), []);

  // Ctrl/⌘ + wheel (and trackpad pinch, which browsers report as that) zooms the page, not the browser.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      zoomBy(Math.exp(-e.deltaY / 300));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [zoomBy]);

  // Two-finger pinch on touch screens.
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<{ dist: number; scale: number } | null>(null);
  const distance = () => {
    const [a, b] = [...pointers.current.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };

  useEffect(() => {
    if (!keyboard) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
      if (e.altKey || e.ctrlKey || e.metaKey) return; // the browser's own zoom and history keys
      if (e.key === '+' || e.key === '=') zoomBy(STEP);
      if (e.key === '-') zoomBy(1 / STEP);
      if (e.key === 'r') setRotation((r) => (r + 90) % 360);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [keyboard, zoomBy]);

  const btn =
    'inline-flex h-8 min-w-8 items-center justify-center gap-1 rounded-md border border-zinc-300 px-2 text-sm text-zinc-800 hover:bg-zinc-100 disabled:opacity-40 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800';
  const label = 'fit' in zoom ? (zoom.fit === 'page' ? 'Fit page' : 'Fit width') : `${Math.round((scale / ACTUAL) * 100)}%`;
  const pageW = width * scale;
  const pageH = height * scale;

  return (
    <div className={`flex min-h-0 flex-col ${className}`} data-testid="zoomable-page" data-scale={scale.toFixed(3)} data-rotation={rotation}>
      <div className="flex flex-wrap items-center justify-end gap-1 pb-2" role="toolbar" aria-label="Page view">
        <button type="button" className={btn} onClick={() => zoomBy(1 / STEP)} aria-label="Zoom out" data-testid="zoom-out">
          <Icon name="minus" className="h-4 w-4" />
        </button>
        <span className="w-20 text-center text-sm tabular-nums text-zinc-700 dark:text-zinc-300" data-testid="zoom-level" aria-live="polite">
          {label}
        </span>
        <button type="button" className={btn} onClick={() => zoomBy(STEP)} aria-label="Zoom in" data-testid="zoom-in">
          <Icon name="plus" className="h-4 w-4" />
        </button>
        <button
          type="button"
          className={btn}
          onClick={() => setZoom('fit' in zoom && zoom.fit === 'page' ? { fit: 'width' } : { fit: 'page' })}
          aria-label={'fit' in zoom && zoom.fit === 'page' ? 'Fit width' : 'Fit page'}
          title={'fit' in zoom && zoom.fit === 'page' ? 'Fit width' : 'Fit page'}
          data-testid="zoom-fit"
        >
          <Icon name="fit" className="h-4 w-4" />
        </button>
        <button
          type="button"
          className={btn}
          onClick={() => setRotation((r) => (r + 90) % 360)}
          aria-label="Rotate page"
          title="Rotate (R)"
          data-testid="rotate-page"
        >
          <Icon name="rotate" className="h-4 w-4" />
        </button>
      </div>
      <div
        ref={box}
        className="min-h-0 flex-1 touch-pan-x touch-pan-y overflow-auto rounded-lg bg-zinc-100 p-2 dark:bg-zinc-950"
        data-testid="page-scroller"
        data-page-scroller
        // Focusable so the keyboard can scroll a zoomed page (arrow keys, Page Up/Down).
        tabIndex={0}
        role="region"
        aria-label={`Page ${page}`}
        onPointerDown={(e) => {
          if (e.pointerType !== 'touch') return;
          pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
          if (pointers.current.size === 2) pinch.current = { dist: distance(), scale: scaleRef.current };
        }}
        onPointerMove={(e) => {
          if (!pointers.current.has(e.pointerId)) return;
          pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
          if (pinch.current && pointers.current.size === 2) {
            const next = pinch.current.scale * (distance() / Math.max(1, pinch.current.dist));
            setZoom({ scale: Math.min(MAX, Math.max(MIN, next)) });
          }
        }}
        onPointerUp={(e) => {
          pointers.current.delete(e.pointerId);
          if (pointers.current.size < 2) pinch.current = null;
        }}
        onPointerCancel={(e) => {
          pointers.current.delete(e.pointerId);
          pinch.current = null;
        }}
      >
        {/* The box the rotated page occupies; the page turns about its centre inside it. */}
        <div className="relative mx-auto" style={{ width: w * scale, height: h * scale }}>
          <div className="absolute left-1/2 top-1/2" style={{ width: pageW, height: pageH, transform: `translate(-50%, -50%) rotate(${rotation}deg)` }}>
            {/* Drawn once the space is measured, so the first scroll to the highlight lands where the page ends up. */}
            {space && <PageImage manualId={manualId} page={page} width={width} height={height} highlight={highlight} pxPerPt={scale} />}
          </div>
        </div>
      </div>
    </div>
  );
}
