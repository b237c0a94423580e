'use client';

import type { SessionSummary } from '@/lib/chat/service';
import { SessionSidebar } from './session-sidebar';
import { SessionsProvider } from './sessions-context';

/** The chat layout: the owner's sessions on the left, the conversation filling the rest of the viewport. */
export function ChatShell({ sessions, children }: { sessions: SessionSummary[]; children: React.ReactNode }) {
  return (
    <SessionsProvider initial={sessions}>
      {/* The app header is h-14 (3.5rem): the shell takes exactly the rest, and scrolls inside. */}
      <div className="flex h-[calc(100dvh-3.5rem)] min-h-0 w-full">
        <SessionSidebar className="hidden md:flex" />
        {children}
      </div>
    </SessionsProvider>
  );
}
