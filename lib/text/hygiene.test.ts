/**
 * Every name a person types loses bidi controls and zero-width characters before it is stored,
 * so other members see what it is: manual titles, chat titles (typed and taken from the first
 * question), user names and sign-in names, API key names, and names from an identity provider.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../api/keys';
import { addUser } from '../auth/users-admin';
import { renameChat } from '../chat/service';
import { titleFromQuestion } from '../chat/view';
import { renameManual } from '../manuals/service';
import { closeDb } from '../store/db';
import { createManual } from '../store/manuals';
import { createSession } from '../store/sessions';
import { uniqueId } from '../store/testing/ids';
import { cleanName, stripInvisibleControls } from './hygiene';

afterAll(closeDb);

/** A right-to-left override, a zero-width space, a zero-width joiner, a word joiner, a BOM. */
const SPOOFED = ' Pump\u202E \u200Bma\u200Dnu\u2060al\uFEFF\u2066 ';

describe('invisible controls in names', () => {
  it('cleanName strips bidi controls and zero-width characters and folds whitespace', () => {
    expect(cleanName(SPOOFED)).toBe('Pump manual');
    expect(cleanName('ad\u200Bmin')).toBe('admin');
    expect(cleanName('\u200B\u200C\u200D\u202E')).toBe('');
    expect(stripInvisibleControls('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    // Visible text of any script stays.
    expect(cleanName('Насос  مضخة ポンプ')).toBe('Насос مضخة ポンプ');
  });

  it('a manual rename stores the clean title; one of only invisible characters is refused', async () => {
    const id = uniqueId('m');
    await createManual({ id, title: 'Old', fileName: 'old.pdf', sha256: id, sizeBytes: 1 });
    expect((await renameManual(id, SPOOFED, 'local-owner')).title).toBe('Pump manual');
    await expect(renameManual(id, '\u200B\u202E', 'local-owner')).rejects.toThrow(/1 to 160/);
  });

  it('a chat title, typed or taken from the first question', async () => {
    const s = await createSession({ id: uniqueId('s'), ownerId: 'alice', title: 'x', scope: null });
    expect((await renameChat('alice', s.id, SPOOFED)).title).toBe('Pump manual');
    expect(titleFromQuestion(`What fuse does the ${SPOOFED} name?`)).toBe('What fuse does the Pump manual name?');
  });

  it('user names and sign-in names, and API key names', async () => {
    const user = await addUser({ email: 'ad\u200Bmin2\u202E', name: SPOOFED, role: 'member', password: 'long-enough-1' });
    expect(user).toMatchObject({ email: 'admin2', name: 'Pump manual' });
    expect((await createApiKey('owner-1', SPOOFED)).view.name).toBe('Pump manual');
  });
});
