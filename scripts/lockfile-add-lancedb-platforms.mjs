/**
 * Writes the lockfile entries of LanceDB's native packages for the other platforms, which
 * `npm install` cannot write here: this machine's registry mirror lacks their metadata, and
 * `npm ci` rejects a lockfile that does not list every optional package of package.json's tree.
 * Run after upgrading @lancedb/lancedb:  node scripts/lockfile-add-lancedb-platforms.mjs package-lock.json
 * then `npm install` (which sorts the entries and leaves them in place).
 */
import fs from 'node:fs';

const file = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const lancedb = lock.packages['node_modules/@lancedb/lancedb'];
const local = lock.packages['node_modules/@lancedb/lancedb-linux-x64-gnu'];

/** "@lancedb/lancedb-linux-arm64-musl" → { os: ['linux'], cpu: ['arm64'], libc: ['musl'] }. */
function platformOf(name) {
  const [os, cpu, abi] = name.replace('@lancedb/lancedb-', '').split('-');
  return { os: [os], cpu: [cpu], ...(abi === 'gnu' || abi === 'musl' ? { libc: [abi === 'gnu' ? 'glibc' : 'musl'] } : {}) };
}

let added = 0;
for (const [name, version] of Object.entries(lancedb.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (!name.startsWith('@lancedb/lancedb-') || lock.packages[key]) continue;
  const { os, cpu, libc } = platformOf(name);
  lock.packages[key] = { version, cpu, ...(libc ? { libc } : {}), license: local.license, optional: true, os, engines: local.engines };
  added++;
}
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`${added} LanceDB platform entries added to ${file}`);
