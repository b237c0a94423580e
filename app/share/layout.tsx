import { ThemeToggle } from '@/components/ui/theme-toggle';

/**
 * The shared chat's own minimal shell: the app's name (not a link), the theme toggle and the
 * conversation. The app header (app/layout.tsx) is left out here (components/layout/app-chrome.tsx),
 * so a visitor has no navigation and no link into the library.
 */
export default function SharedLayout({ children }: { children: React.ReactNode }) {
  return (
    <>
      <div data-testid="share-shell" className="flex h-14 items-center gap-2 border-b border-zinc-200 px-4 dark:border-zinc-800">
        <span aria-hidden className="inline-flex h-7 w-7 items-center justify-center rounded-md bg-brand-600 text-sm font-semibold text-white">
          MC
        </span>
        <span className="font-semibold tracking-tight">Manual Copilot</span>
        <span className="text-sm text-zinc-600 dark:text-zinc-400">· shared chat</span>
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
        </div>
      </div>
      {children}
    </>
  );
}
