'use client';

import { usePathname } from 'next/navigation';

/**
 * The app's own chrome (header and navigation), left out of shared chats: a visitor with a share
 * link sees the conversation and its citations in the share route's own shell (app/share/layout.tsx),
 * with no way into the library. Decided from the path on every navigation, so "Continue in a new
 * chat" (share → chat) brings the header back.
 */
export function AppChrome({ children }: { children: React.ReactNode }) {
  const path = usePathname();
  return path === '/share' || path?.startsWith('/share/') ? null : <>{children}</>;
}
