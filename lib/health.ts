import 'server-only';
import { isDataDirWritable } from './data-dir';
import { describeProviders, getConfig } from './providers/config';
import { pingDb } from './store/db';
import { APP_VERSION } from './version';

/** The health report behind GET /api/health: version, storage and the active provider of each role. */
export async function healthReport() {
  const config = getConfig();
  const dataDir = isDataDirWritable();
  const db = dataDir.ok ? await pingDb() : { ok: false, error: 'DATA_DIR not writable' };
  return {
    ok: dataDir.ok && db.ok,
    version: APP_VERSION,
    node: process.version,
    dataDir,
    db,
    providers: describeProviders(config),
  };
}
