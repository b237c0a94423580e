/**
 * /api/mcp — the Model Context Protocol over Streamable HTTP (lib/mcp): tools search_manuals,
 * get_page, list_manuals, ask and the manuals as resources. Requires `Authorization: Bearer <API key>`.
 */
import { handleMcpRequest } from '@/lib/mcp/http';

export const dynamic = 'force-dynamic';

export const POST = (request: Request) => handleMcpRequest(request);
export const GET = (request: Request) => handleMcpRequest(request);
export const DELETE = (request: Request) => handleMcpRequest(request);
