import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Every test file gets its own scratch DATA_DIR, so tests never touch ./data or each other.
if (!process.env.MC_TEST_KEEP_DATA_DIR) {
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-test-'));
}

// Tests never reach a model hub: the transformers.js path is exercised with a generated model.
process.env.HF_HUB_OFFLINE ??= '1';
process.env.MC_LOG_LEVEL ??= 'silent';
