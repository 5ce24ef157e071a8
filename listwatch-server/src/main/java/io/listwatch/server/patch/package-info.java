/**
 * The patch formats only the server applies, each a pure function from (stored object, patch
 * document) to the new object; the REST layer picks one by {@code Content-Type}.
 *
 * <p>JSON merge patch (RFC 7386, {@code application/merge-patch+json}) is
 * {@link io.listwatch.api.JsonMergePatch}, shared with the client's fake. JSON Patch (RFC
 * 6902), strategic merge patch and server-side apply come later and belong here, one class
 * each.
 */
package io.listwatch.server.patch;
