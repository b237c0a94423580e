'use client';

import { createContext, useContext, useState } from 'react';
import type { SessionSummary } from '@/lib/chat/service';
import { SessionSidebar } from './session-sidebar';
import { SessionsProvider } from './sessions-context';

const OpenSidebar = createContext<(() => void) | null>(null);

/** Opens the chats drawer on small screens (null outside a ChatShell). */
export function useOpenSidebar(): (() => void) | null {
  return useContext(OpenSidebar);
}

/** The chat layout: the owner's sessions on the left, the conversation filling the rest of the viewport. */
export function ChatShell({ sessions, children }: { sessions: SessionSummary[]; children: React.ReactNode }) {
  const [drawer, setDrawer] = useState(false);
  return (
    <SessionsProvider initial={sessions}>
      <OpenSidebar.Provider value={() => setDrawer(true)}>
        {/* The app header is h-14 (3.5rem): the shell takes exactly the rest, and scrolls inside. */}
        <div className="flex h-[calc(100dvh-3.5rem)] min-h-0 w-full">
          <SessionSidebar className="hidden md:flex" />
          {drawer && (
            <div className="fixed inset-0 z-40 flex md:hidden" role="dialog" aria-modal="true" aria-label="Chats">
              <SessionSidebar className="relative z-10 flex h-full bg-white shadow-xl dark:bg-zinc-950" onNavigate={() => setDrawer(false)} />
              <button type="button" aria-label="Close chats" onClick={() => setDrawer(false)} className="flex-1 bg-zinc-950/40" />
            </div>
          )}
          {children}
        </div>
      </OpenSidebar.Provider>
    </SessionsProvider>
  );
}
