'use client';

import { createContext, useContext, useState } from 'react';
import type { SessionSummary } from '@/lib/chat/service';
import { useModalDialog } from '@/components/ui/use-modal-dialog';
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
  const dialog = useModalDialog(drawer);
  return (
    <SessionsProvider initial={sessions}>
      <OpenSidebar.Provider value={() => setDrawer(true)}>
        {/* The app header is h-14 (3.5rem): the shell takes exactly the rest, and scrolls inside. */}
        <div className="flex h-[calc(100dvh-3.5rem)] min-h-0 w-full">
          <SessionSidebar className="hidden w-64 md:flex" />
          {/* Small screens: the same list in a modal drawer (focus kept inside, Esc or the backdrop closes it). */}
          <dialog
            ref={dialog}
            aria-label="Chats"
            data-testid="sidebar-drawer"
            onCancel={(e) => {
              e.preventDefault();
              setDrawer(false);
            }}
            onClose={() => setDrawer(false)}
            onClick={(e) => {
              if (e.target === e.currentTarget) setDrawer(false); // the backdrop
            }}
            className="m-0 h-dvh max-h-none w-72 max-w-[85vw] border-0 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/40 dark:bg-zinc-950 dark:text-zinc-100"
          >
            {drawer && <SessionSidebar className="flex h-full w-full" onNavigate={() => setDrawer(false)} onClose={() => setDrawer(false)} />}
          </dialog>
          {children}
        </div>
      </OpenSidebar.Provider>
    </SessionsProvider>
  );
}
