'use client';

import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import type { SessionSummary } from '@/lib/chat/service';

interface SessionsContextValue {
  sessions: SessionSummary[];
  /** Adds or updates a session and moves it to the top (most recent activity). */
  upsert: (s: SessionSummary) => void;
  remove: (id: string) => void;
}

const SessionsContext = createContext<SessionsContextValue>({ sessions: [], upsert: () => {}, remove: () => {} });

export function SessionsProvider({ initial, children }: { initial: SessionSummary[]; children: React.ReactNode }) {
  const [sessions, setSessions] = useState(initial);
  const upsert = useCallback((s: SessionSummary) => setSessions((list) => [s, ...list.filter((x) => x.id !== s.id)]), []);
  const remove = useCallback((id: string) => setSessions((list) => list.filter((x) => x.id !== id)), []);
  const value = useMemo(() => ({ sessions, upsert, remove }), [sessions, upsert, remove]);
  return <SessionsContext.Provider value={value}>{children}</SessionsContext.Provider>;
}

export function useSessions(): SessionsContextValue {
  return useContext(SessionsContext);
}
