'use client';

import { useEffect, useRef } from 'react';
import type { BBox } from '@/lib/providers/types';

export interface Highlight {
  chunkId: string;
  bboxes: BBox[];
  heading?: string;
  text: string;
}

/** A page image with highlight boxes placed in page coordinates (percentages scale with zoom). */
export function PageImage({
  manualId,
  page,
  width,
  height,
  highlight,
}: {
  manualId: string;
  page: number;
  width: number;
  height: number;
  highlight: Highlight | null;
}) {
  const firstBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    firstBox.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [highlight?.chunkId]);
  return (
    <div className="relative w-full bg-white shadow" style={{ aspectRatio: `${width} / ${height}` }}>
      {/* eslint-disable-next-line @next/next/no-img-element -- served by our own cached route */}
      <img src={`/manuals/${manualId}/pages/${page}/image`} alt={`Page ${page}`} className="absolute inset-0 h-full w-full" data-testid="page-image" />
      {highlight?.bboxes.map((b, i) => (
        <div
          key={i}
          ref={i === 0 ? firstBox : undefined}
          data-testid="highlight"
          className="pointer-events-none absolute rounded-sm bg-yellow-300/40 ring-2 ring-yellow-500/70 mix-blend-multiply"
          style={{ left: `${(b.x / width) * 100}%`, top: `${(b.y / height) * 100}%`, width: `${(b.w / width) * 100}%`, height: `${(b.h / height) * 100}%` }}
        />
      ))}
    </div>
  );
}
