/**
 * The page's CSP forbids eval; zod 4 would probe `new Function` for its JIT object parser when the
 * AI SDK validates the chat stream in the browser, and the probe alone is reported as a violation.
 * Imported before `@ai-sdk/react` so every schema is built in jitless mode.
 */
import { config } from 'zod';

config({ jitless: true });
