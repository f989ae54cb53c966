/**
 * The billing sample's 1,000 invoices, generated exactly as the Java `InvoiceStore.sample()`
 * generates them, so every server in the comparison looks up the same data.
 */

/** The tenant every sample invoice belongs to. */
export const SAMPLE_TENANT = "t_777";

/** The lifecycle of an invoice, in the Java enum's order (the generator indexes it). */
const STATUSES = ["DRAFT", "OPEN", "PAID", "VOID"] as const;

/** An invoice as the store keeps it; the last three fields must never reach an agent. */
export interface Invoice {
  id: string;
  totalCents: number;
  status: (typeof STATUSES)[number];
  webhookSecret: string;
  internalFlags: { riskScore: number; reviewer: string };
  tenantId: string;
}

/** `INV-0001` … `INV-1000`, keyed by id. */
export function sampleInvoices(): Map<string, Invoice> {
  const invoices = new Map<string, Invoice>();
  for (let i = 1; i <= 1000; i++) {
    const id = "INV-" + String(i).padStart(4, "0");
    invoices.set(id, {
      id,
      totalCents: 1000 + ((i * 137) % 90_000),
      status: STATUSES[(i * 7) % STATUSES.length],
      // Java: "whsec_" + Integer.toHexString(id.hashCode() * 31 + i), in 32-bit int arithmetic.
      webhookSecret: "whsec_" + ((Math.imul(javaHashCode(id), 31) + i) >>> 0).toString(16),
      internalFlags: { riskScore: i % 100, reviewer: "ops-" + (i % 7) },
      tenantId: SAMPLE_TENANT,
    });
  }
  return invoices;
}

/** Java's `String.hashCode` (ASCII ids, so UTF-16 code units equal the characters). */
function javaHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) {
    h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  }
  return h;
}
