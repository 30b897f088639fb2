/**
 * The guarded `http.fetch` a plugin is given now lives in core (`@tagsonic/core/net`, see its README), so the
 * gateway can use the same client to download a source's cover; this folder re-exports it for the plugin runtime.
 */
export * from '@tagsonic/core/net';
