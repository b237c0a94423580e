/** POST /api/v1/ask — {question, manuals?} → the agent's cited answer (lib/api/ask.ts). Bearer API key. */
import { handleAsk } from '@/lib/api/ask';
import { baseUrlOf } from '@/lib/mcp/http';

export const dynamic = 'force-dynamic';

export const POST = (request: Request) => handleAsk(request, baseUrlOf(request));
