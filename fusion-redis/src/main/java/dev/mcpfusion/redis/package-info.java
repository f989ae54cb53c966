/**
 * Fleet state on Redis: {@link dev.mcpfusion.redis.FusionRedis} connects once and hands out the
 * stores every instance of one connector shares.
 */
package dev.mcpfusion.redis;
