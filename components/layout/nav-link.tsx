'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

export function NavLink({ href, children, testId }: { href: string; children: React.ReactNode; testId: string }) {
  const pathname = usePathname();
  const active = href === '/' ? pathname === '/' || pathname.startsWith('/chat') : pathname.startsWith(href);
  return (
    <Link
      href={href}
      data-testid={testId}
      aria-current={active ? 'page' : undefined}
      className={`rounded-md px-3 py-1.5 text-sm font-medium transition-colors ${
        active
          ? 'bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-white'
          : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-900 dark:hover:text-white'
      }`}
    >
      {children}
    </Link>
  );
}
