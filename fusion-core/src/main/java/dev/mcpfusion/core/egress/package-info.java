/**
 * One way out: the chain every message the server writes passes before the edge frames it —
 * redaction of content no view shaped (the server-wide detectors, with those of the view that
 * shaped the call's answer), the egress filters a connector registers, and the byte cap — for tool
 * results and their attachments, error envelopes, prompt messages, resource contents, completion
 * values, progress and log notifications, sampling and elicitation requests and resource updates.
 * What a view shapes is redacted where it is presented (its {@code @Redact} paths need the view);
 * everything else is redacted here. Fails closed: what it cannot read or check is not sent.
 */
package dev.mcpfusion.core.egress;
