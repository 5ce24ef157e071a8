/**
 * The patch formats a {@code PATCH} request may carry, each a pure function from (stored object,
 * patch document) to the new object. The REST layer picks one by {@code Content-Type}.
 *
 * <p>Map of the package:
 * <ul>
 *   <li>{@link io.listwatch.server.patch.JsonMergePatch}: RFC 7386,
 *       {@code application/merge-patch+json}.</li>
 * </ul>
 * JSON Patch (RFC 6902), strategic merge patch and server-side apply come later and belong
 * here, one class each.
 */
package io.listwatch.server.patch;
