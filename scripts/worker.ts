/**
 * `npm run worker`: an ingest worker alone, without the web server — for machines that only
 * process uploads. Run as many as you like against one DATABASE_URL and one FILES_DIR; they share
 * the queue (see README "Running on several machines"). Stops on SIGTERM/SIGINT; a job it was
 * running is recovered by another worker.
 */
import { getConfig } from '../lib/config';

const config = getConfig();
if (config.database.dialect !== 'postgres') {
  console.log('[ingest] no DATABASE_URL: this worker shares the SQLite queue of DATA_DIR with the server on this machine');
}
await import('../lib/ingest/worker');
