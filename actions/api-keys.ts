'use server';

import { z } from 'zod';
import { ApiKeyError, createApiKey, listKeys, revokeKey, type ApiKeyView } from '@/lib/api/keys';
import { ensureKeyOwner, keyCreator } from '@/lib/api/key-owner';
import { AccessError } from '@/lib/auth/access';
import { DISK_FULL_MESSAGE_TEXT, isDiskFull } from '@/lib/runtime/disk-space';

type Result<T> = { ok: true; data: T } | { ok: false; message: string };

async function run<T>(body: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, data: await body() };
  } catch (err) {
    if (err instanceof ApiKeyError || err instanceof AccessError) return { ok: false, message: err.message };
    console.error('[api-keys] unexpected error', err);
    if (isDiskFull(err)) return { ok: false, message: DISK_FULL_MESSAGE_TEXT };
    return { ok: false, message: 'Something went wrong on the server. Please try again.' };
  }
}

const createSchema = z.object({ name: z.string().max(200) });

/** A new key: the full key is in this answer only (it is stored hashed). */
export async function createKey(input: z.input<typeof createSchema>): Promise<Result<{ key: string; keys: ApiKeyView[] }>> {
  return run(async () => {
    const parsed = createSchema.safeParse(input);
    if (!parsed.success) throw new ApiKeyError(400, 'The name is too long (at most 80 characters).');
    const owner = await keyCreator();
    const { key } = await createApiKey(owner, parsed.data.name);
    return { key, keys: await listKeys(owner) };
  });
}

const revokeSchema = z.object({ keyId: z.string().uuid() });

export async function revokeApiKeyAction(input: z.input<typeof revokeSchema>): Promise<Result<{ keys: ApiKeyView[] }>> {
  return run(async () => {
    const parsed = revokeSchema.safeParse(input);
    if (!parsed.success) throw new ApiKeyError(404, 'That key does not exist.');
    const owner = await ensureKeyOwner();
    await revokeKey(owner, parsed.data.keyId);
    return { keys: await listKeys(owner) };
  });
}
