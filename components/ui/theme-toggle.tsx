'use client';

import { useEffect, useState } from 'react';
import { applyTheme, THEME_STORAGE_KEY, type ThemeChoice } from './theme';

const systemDark = () => window.matchMedia('(prefers-color-scheme: dark)').matches;
const isDark = (choice: ThemeChoice) => choice === 'dark' || (choice === 'system' && systemDark());

function readChoice(): ThemeChoice {
  const saved = typeof window === 'undefined' ? null : window.localStorage.getItem(THEME_STORAGE_KEY);
  return saved === 'light' || saved === 'dark' ? saved : 'system';
}

/**
 * Switches between light and dark: every click changes what you see. Choosing the look the system
 * has anyway stores "system", so the page follows the OS setting again from then on.
 */
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

  const toggle = () => {
    const wantDark = !isDark(choice);
    const next: ThemeChoice = wantDark === systemDark() ? 'system' : wantDark ? 'dark' : 'light';
    if (next === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, next);
    applyTheme(next);
    setChoice(next);
  };
  // Before hydration the choice is unknown: label the button for the common case (light).
  const [dark, setDark] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- matchMedia is not readable during SSR
  useEffect(() => setDark(isDark(choice)), [choice]);

  return (
    <button
      type="button"
      onClick={toggle}
      data-testid="theme-toggle"
      data-theme-choice={choice}
      aria-label={dark ? 'Switch to light theme' : 'Switch to dark theme'}
      title={dark ? 'Switch to light theme' : 'Switch to dark theme'}
      className="inline-flex h-9 w-9 items-center justify-center rounded-md border border-zinc-200 text-lg text-zinc-700 hover:bg-zinc-100 dark:border-zinc-800 dark:text-zinc-200 dark:hover:bg-zinc-900"
    >
      <span aria-hidden>{dark ? '☀' : '☾'}</span>
    </button>
  );
}
