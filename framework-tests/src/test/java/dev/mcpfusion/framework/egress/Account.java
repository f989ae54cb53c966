package dev.mcpfusion.framework.egress;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Hidden;
import dev.mcpfusion.annotation.Model;

/**
 * A bank account holding one of every secret the egress property plants: what the detectors find
 * (a card number, an IBAN, four kinds of API token), a free-form note only a {@code @Redact} path
 * masks, and a {@code @Hidden} sentinel that no view may show.
 */
@Model(description = "A customer's account with the secrets that must never reach an agent in clear")
public record Account(
    @Describe("Account id, e.g. acct-000001") String id,
    @Describe("Who holds the account") String holder,
    @Describe("Payment card number") String card,
    @Describe("IBAN the account pays out to") String iban,
    @Describe("Stripe live secret key") String stripeKey,
    @Describe("GitHub personal access token") String githubToken,
    @Describe("Slack bot token") String slackToken,
    @Describe("AWS access key id") String awsKeyId,
    @Describe("The account manager's free-form note") String note,
    @Hidden String sentinel) {}
