import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { asAction, parseInput } from './errors';

const schema = z.object({ sessionId: z.string().min(1), title: z.string().trim() });

describe('parseInput', () => {
  it('returns the input as the schema reads it', () => {
    expect(parseInput(schema, { sessionId: 'a', title: '  Pump  ' })).toEqual({ sessionId: 'a', title: 'Pump' });
  });

  it('turns refused input into a bad_request the action reports, with the standard or the given message', async () => {
    expect(await asAction(async () => parseInput(schema, { sessionId: '' }))).toEqual({
      ok: false,
      code: 'bad_request:chat',
      message: 'That request could not be understood. Please try again.',
    });
    expect(await asAction(async () => parseInput(schema, null, 'A title needs 1 to 120 characters.'))).toEqual({
      ok: false,
      code: 'bad_request:chat',
      message: 'A title needs 1 to 120 characters.',
    });
  });
});
