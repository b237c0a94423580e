import { describe, expect, it } from 'vitest';
import { encodeLine, LineDecoder, type StreamLine } from './protocol';

describe('NDJSON lines', () => {
  it('round-trips lines split at any byte boundary', () => {
    const lines: StreamLine[] = [
      { kind: 'start', sessionId: 's1', messageId: 'm1', title: 'Spannung – 24 V', createdSession: true },
      { kind: 'event', event: { type: 'status', tool: 'hybrid_search', message: 'Suche… ✓', t: 3 } },
      { kind: 'end', status: 'done' },
    ];
    const bytes = Buffer.concat(lines.map((l) => Buffer.from(encodeLine(l))));
    const text = new TextDecoder().decode(bytes);
    for (let cut = 1; cut < text.length; cut += 7) {
      const d = new LineDecoder();
      const out = [...d.push(text.slice(0, cut)), ...d.push(text.slice(cut)), ...d.flush()];
      expect(out).toEqual(lines);
    }
  });

  it('parses a last line without a newline on flush', () => {
    const d = new LineDecoder();
    expect(d.push('{"kind":"end","status":"cancelled"}')).toEqual([]);
    expect(d.flush()).toEqual([{ kind: 'end', status: 'cancelled' }]);
  });
});
