import { isLoopbackHost } from '@/lib/config/network';

/**
 * Where a share link points: PUBLIC_URL (the address colleagues use) when it is set, else the
 * address this browser used. `base` is an origin such as http://workshop-pc:3000 (no trailing /).
 */
export function shareLink(publicUrl: string | null, browserOrigin: string, shareId: string): string {
  return `${(publicUrl ?? browserOrigin).replace(/\/+$/, '')}/share/${shareId}`;
}

/** True when the link names this computer (127.0.0.1, localhost, ::1): nobody else can open it. */
export function onlyThisComputer(link: string): boolean {
  try {
    return isLoopbackHost(new URL(link).hostname);
  } catch {
    return false;
  }
}
