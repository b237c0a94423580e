import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDataDir } from '../runtime/data-dir';
import { getConfig } from '../config';

let cachedSecret: { dir: string; secret: string } | undefined;

/** SESSION_SECRET, or a random secret generated once into DATA_DIR (0600) so restarts keep owners. */
export function ownerSecret(): string {
  const config = getConfig();
  if (config.sessionSecret) return config.sessionSecret;
  if (cachedSecret?.dir === config.dataDir) return cachedSecret.secret;
  const file = path.join(ensureDataDir(), 'session-secret');
  let secret: string;
  try {
    secret = fs.readFileSync(file, 'utf8').trim();
  } catch {
    secret = randomBytes(32).toString('hex');
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    } catch {
      secret = fs.readFileSync(file, 'utf8').trim(); // another process won the race
    }
  }
  cachedSecret = { dir: config.dataDir, secret };
  return secret;
}
