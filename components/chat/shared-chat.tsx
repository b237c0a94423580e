'use client';

import { useMemo, useState } from 'react';
import { fromStored, type CitationTarget, type StoredTurn } from '@/lib/chat/view';
import { CitationPreview } from './citation-preview';
import { Turn } from './turn';

/** A shared snapshot, rendered with the chat's own components but without any of its actions, nor a link into the library. */
export function SharedChat({ turns }: { turns: StoredTurn[] }) {
  const views = useMemo(() => turns.map(fromStored), [turns]);
  const asked = useMemo(() => views.map((t) => t.question), [views]);
  const [preview, setPreview] = useState<CitationTarget | null>(null);
  return (
    <>
      <div className="space-y-10" data-testid="chat-messages">
        {views.map((t, i) => (
          <Turn key={t.id} turn={t} isLast={i === views.length - 1} readOnly asked={asked} onOpenSource={setPreview} />
        ))}
      </div>
      <CitationPreview target={preview} onClose={() => setPreview(null)} viewerLink={false} />
    </>
  );
}
