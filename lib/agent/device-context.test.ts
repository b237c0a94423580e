import { describe, expect, it } from 'vitest';
import { chooseScope, type DeviceContext, type ScopeInput } from './device-context';

const titles: Record<string, string> = { hx200: 'Acme HX-200 Press Controller', hx300: 'Acme HX-300 Press Controller', dp832: 'Brill DP832 Power Supply' };
const titleOf = (id: string) => titles[id];
const none = { manualIds: [], ambiguous: false, words: [], written: [] };
const hx200 = { manualIds: ['hx200'], ambiguous: false, words: ['hx-200'], written: ['HX-200'] };
const dp832 = { manualIds: ['dp832'], ambiguous: false, words: ['dp832'], written: ['DP832'] };
const acme = { manualIds: ['hx200', 'hx300'], ambiguous: true, words: ['acme'], written: ['Acme'] };
const context: DeviceContext = { manualIds: ['hx200'], device: 'HX-200', turn: 1 };

// The rules below under the 'scope' policy (the named manuals searched alone); the default puts their pages first instead.
const scoped = (input: ScopeInput) => chooseScope({ ...input, policy: 'scope' });

describe('the scope of a turn', () => {
  it('is the device the first question names, which becomes the chat context', async () => {
    const scope = scoped({ picked: undefined, named: hx200, context: null, turn: 1, titleOf });
    expect(scope).toMatchObject({ manualIds: ['hx200'], context: { manualIds: ['hx200'], device: 'HX-200', turn: 1 }, named: true });
    expect(scope.reason).toBe('searched "Acme HX-200 Press Controller": named in this question ("HX-200")');
  });

  it('keeps the context for a follow-up that names no device, and says where it came from', async () => {
    const scope = scoped({ picked: undefined, named: none, context, turn: 2, titleOf });
    expect(scope).toMatchObject({ manualIds: ['hx200'], context });
    expect(scope.named).toBeUndefined();
    expect(scope.reason).toContain('named in your first question ("HX-200")');
  });

  it('moves the context to another device a question names', async () => {
    const scope = scoped({ picked: undefined, named: dp832, context, turn: 3, titleOf });
    expect(scope).toMatchObject({ manualIds: ['dp832'], context: { manualIds: ['dp832'], device: 'DP832', turn: 3 } });
    expect(chooseScope({ picked: undefined, named: none, context: scope.context, turn: 4, titleOf }).reason).toContain('named in question 3');
  });

  it('searches everything for an ambiguous name and says so, unless the context is one of its manuals', async () => {
    const open = scoped({ picked: undefined, named: acme, context: null, turn: 1, titleOf });
    expect(open).toMatchObject({ manualIds: undefined, context: null, ambiguous: ['hx200', 'hx300'] });
    expect(open.reason).toMatch(/"Acme" is ambiguous \(it matches "Acme HX-200 Press Controller" and "Acme HX-300 Press Controller"\)/);
    const kept = scoped({ picked: undefined, named: acme, context, turn: 2, titleOf });
    expect(kept).toMatchObject({ manualIds: ['hx200'], context, ambiguous: ['hx200', 'hx300'] });
  });

  it('searches every copy of one manual a name matches (the same device): no ambiguity', async () => {
    const copies = { manualIds: ['hx200', 'hx200-copy'], ambiguous: false, words: ['hx-200'], written: ['HX-200'] };
    const scope = scoped({ picked: undefined, named: copies, context: null, turn: 1, titleOf: (id) => titleOf(id.replace('-copy', '')) });
    expect(scope).toMatchObject({ manualIds: ['hx200', 'hx200-copy'], context: { manualIds: ['hx200', 'hx200-copy'], device: 'HX-200' } });
    expect(scope.reason).toContain('(2 copies)');
  });

  it('searches every manual when nothing is named and there is no context', () => {
    expect(chooseScope({ picked: undefined, named: none, context: null, turn: 1, titleOf })).toMatchObject({
      manualIds: undefined,
      context: null,
      reason: 'searched every manual: no device named',
    });
  });

  it('follows the manuals the user picked, narrowing to a named one among them; the context waits', () => {
    expect(chooseScope({ picked: ['hx300'], named: none, context, turn: 2, titleOf })).toMatchObject({
      manualIds: ['hx300'],
      context,
      reason: 'searched "Acme HX-300 Press Controller": the manuals you picked',
    });
    expect(chooseScope({ picked: ['hx200', 'dp832'], named: dp832, context: null, turn: 1, titleOf })).toMatchObject({ manualIds: ['dp832'], context: null });
  });

  it('by default puts the named device’s pages first and searches every manual; off filters nothing', async () => {
    const first = chooseScope({ picked: undefined, named: hx200, context: null, turn: 1, titleOf });
    expect(first).toMatchObject({ manualIds: undefined, preferManualIds: ['hx200'], context: { manualIds: ['hx200'], device: 'HX-200', turn: 1 } });
    expect(first.reason).toBe('searched every manual, "Acme HX-200 Press Controller" first: named in this question ("HX-200")');
    expect(chooseScope({ picked: undefined, named: none, context, turn: 2, titleOf })).toMatchObject({
      manualIds: undefined,
      preferManualIds: ['hx200'],
      context,
    });
    // A picked scope is still a filter.
    expect(chooseScope({ picked: ['hx200', 'dp832'], named: dp832, context: null, turn: 1, titleOf })).toMatchObject({ manualIds: ['dp832'] });
    const off = chooseScope({ picked: undefined, named: hx200, context, turn: 2, titleOf, policy: 'off' });
    expect(off).toMatchObject({ manualIds: undefined, reason: 'searched every manual' });
  });
});
