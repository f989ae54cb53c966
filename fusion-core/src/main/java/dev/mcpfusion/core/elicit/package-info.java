/**
 * Elicitation forms: a record made into the restricted schema of {@code elicitation/create} and
 * the client's answer read back into it ({@link dev.mcpfusion.core.elicit.Forms}).
 *
 * <p>Framework-internal: not exported; users call {@link dev.mcpfusion.core.RequestContext#elicit}.
 */
package dev.mcpfusion.core.elicit;
