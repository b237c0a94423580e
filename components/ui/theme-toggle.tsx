'use client';

import { useEffect, useState } from 'react';
import { applyTheme, THEME_STORAGE_KEY, type ThemeChoice } from './theme';

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<ThemeChoice, string> = { system: 'System theme', light: 'Light theme', dark: 'Dark theme' };
const ICON: Record<ThemeChoice, string> = { system: '◐', light: '☀', dark: '☾' };

function readChoice(): ThemeChoice {
  const saved = typeof window === 'undefined' ? null : window.localStorage.getItem(THEME_STORAGE_KEY);
  return saved === 'light' || saved === 'dark' ? saved : 'system';
}

/** Cycles system → light → dark; "system" keeps following the OS setting live. */
export function ThemeToggle() {
  const [choice, setChoice] = useState<ThemeChoice>('system');

  useEffect(() => {
    // Sync with what the pre-paint script applied (localStorage is not readable during SSR).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setChoice(readChoice());
  }, []);

  useEffect(() => {
    if (choice !== 'system') return;
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => applyTheme('system');
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, [choice]);

  const cycle = () => {
    const next = NEXT[choice];
    window.localStorage.setItem(THEME_STORAGE_KEY, next);
    applyTheme(next);
    setChoice(next);
  };

  return (
    <button
      type="button"
      onClick={cycle}
      data-testid="theme-toggle"
      data-theme-choice={choice}
      aria-label={`${LABEL[choice]} (click for ${LABEL[NEXT[choice]].toLowerCase()})`}
      title={LABEL[choice]}
      className="inline-flex h-9 w-9 items-center justify-center rounded-md border border-zinc-200 text-lg text-zinc-700 hover:bg-zinc-100 dark:border-zinc-800 dark:text-zinc-200 dark:hover:bg-zinc-900"
    >
      <span aria-hidden>{ICON[choice]}</span>
    </button>
  );
}
