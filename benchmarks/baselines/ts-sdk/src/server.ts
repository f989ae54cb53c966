/**
 * Benchmark baseline: the billing sample's `billing_get_invoice` written by hand on the plain MCP
 * TypeScript SDK (`McpServer.registerTool`, the SDK's own transports, its defaults otherwise).
 *
 *   node dist/server.js              # stdio (one JSON-RPC message per line)
 *   node dist/server.js --stdio      # the same
 *   node dist/server.js --http PORT  # Streamable HTTP at /mcp, stateful sessions; PORT 0 picks one
 *
 * Over HTTP it prints `ts-sdk MCP server listening on http://127.0.0.1:<port>/mcp` to stderr once
 * listening, the line the Java load clients wait for. It answers what the fusion sample and the
 * plain Java SDK baseline answer for an invoice: its public fields as compact JSON text, and the same
 * object as `structuredContent`.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { sampleInvoices, SAMPLE_TENANT, type Invoice } from "./invoices.js";

const PATH = "/mcp";
const INVOICE_ID = /^INV-\d+$/;
const invoices = sampleInvoices();

/** A server with the one tool; the SDK binds a server to one transport, so HTTP makes one per session. */
function billingServer(): McpServer {
  const server = new McpServer({ name: "billing", version: "1.0.0" });
  server.registerTool(
    "billing_get_invoice",
    {
      description: "Get one invoice",
      inputSchema: { id: z.string().describe("Invoice ID, e.g. INV-0042") },
    },
    async ({ id }, extra): Promise<CallToolResult> => {
      // The same checks as the sample (not blank, INV-\d+), then the tenant, then the lookup.
      if (id.trim() === "") {
        return error("id must not be blank");
      }
      if (!INVOICE_ID.test(id)) {
        return error("id must match INV-\\d+");
      }
      const tenant = typeof extra._meta?.tenant === "string" ? extra._meta.tenant : SAMPLE_TENANT;
      if (tenant.trim() === "") {
        return error("This call carries no tenant.");
      }
      const invoice = invoices.get(id);
      if (invoice === undefined || invoice.tenantId !== tenant) {
        return error(`Invoice "${id}" does not exist.`);
      }
      const view = publicFields(invoice);
      return { content: [{ type: "text", text: JSON.stringify(view) }], structuredContent: view };
    },
  );
  return server;
}

/** What an agent may see of an invoice: never the webhook secret, internal flags or tenant. */
function publicFields(invoice: Invoice): { id: string; totalCents: number; status: string } {
  return { id: invoice.id, totalCents: invoice.totalCents, status: invoice.status };
}

function error(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

async function serveStdio(): Promise<void> {
  await billingServer().connect(new StdioServerTransport());
}

/** Streamable HTTP as the SDK's README builds it: a transport (and server) per session id. */
function serveHttp(port: number): void {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    handle(sessions, req, res).catch((e: unknown) => {
      console.error("request failed:", e);
      if (!res.headersSent) {
        res.writeHead(500).end();
      }
    });
  });
  // Loopback only: a benchmark server is never reachable from elsewhere.
  http.listen(port, "127.0.0.1", () => {
    const actual = (http.address() as AddressInfo).port;
    console.error(`ts-sdk MCP server listening on http://127.0.0.1:${actual}${PATH}`);
  });
}

async function handle(sessions: Map<string, StreamableHTTPServerTransport>, req: IncomingMessage,
    res: ServerResponse): Promise<void> {
  if (new URL(req.url ?? "/", "http://127.0.0.1").pathname !== PATH) {
    res.writeHead(404).end();
    return;
  }
  const body = req.method === "POST" ? await readJson(req) : undefined;
  const sessionId = req.headers["mcp-session-id"];
  const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
  if (existing !== undefined) {
    await existing.handleRequest(req, res, body);
    return;
  }
  if (sessionId !== undefined || !isInitializeRequest(body)) {
    res.writeHead(sessionId === undefined ? 400 : 404, { "content-type": "application/json" })
      .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "No valid session" }, id: null }));
    return;
  }
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      sessions.set(id, transport);
    },
  });
  transport.onclose = () => {
    if (transport.sessionId !== undefined) {
      sessions.delete(transport.sessionId);
    }
  };
  await billingServer().connect(transport);
  await transport.handleRequest(req, res, body);
}

/** The request body parsed as JSON (what `express.json()` does in the SDK's examples). */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

const args = process.argv.slice(2);
if (args.length === 2 && args[0] === "--http" && /^\d+$/.test(args[1])) {
  serveHttp(Number(args[1]));
} else if (args.length === 0 || (args.length === 1 && args[0] === "--stdio")) {
  await serveStdio();
} else {
  console.error("usage: node dist/server.js [--stdio | --http PORT]");
  process.exit(2);
}
