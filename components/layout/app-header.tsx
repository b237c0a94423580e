import Link from 'next/link';
import { ThemeToggle } from '@/components/ui/theme-toggle';
import { NavLink } from './nav-link';

export function AppHeader() {
  return (
    <header className="sticky top-0 z-20 border-b border-zinc-200 bg-white/85 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/85">
      {/* Full width, like the chat layout under it (the sidebar starts at the left edge). */}
      <div className="flex h-14 items-center gap-2 px-4 sm:gap-4">
        <Link href="/" data-testid="home-link" className="flex shrink-0 items-center gap-2 rounded-md font-semibold tracking-tight">
          <span aria-hidden className="inline-flex h-7 w-7 items-center justify-center rounded-md bg-brand-600 text-sm text-white">
            MC
          </span>
          {/* Narrow screens keep the mark only; the name stays for screen readers. */}
          <span className="sr-only sm:not-sr-only">Manual Copilot</span>
        </Link>
        <nav aria-label="Main" className="flex items-center gap-1">
          <NavLink href="/" testId="nav-chat">
            Chat
          </NavLink>
          <NavLink href="/manuals" testId="nav-manuals">
            Manuals
          </NavLink>
          <NavLink href="/settings" testId="nav-settings">
            Settings
          </NavLink>
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
        </div>
      </div>
    </header>
  );
}
