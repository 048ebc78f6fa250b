/**
 * Static assets (images, scripts, styles, fonts) of a recorded page: what a HAR import leaves out
 * unless asked for everything (`--all`). Known by the response's media type, by the path's
 * extension or by Chromium's `_resourceType`, whichever says so.
 */

const ASSET_TYPES = new Set([
  'text/css',
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'text/ecmascript',
  'application/font-woff',
  'application/font-woff2',
  'application/x-font-woff',
  'application/x-font-ttf',
  'application/x-font-otf',
  'application/vnd.ms-fontobject',
]);

const ASSET_EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'avif',
  'svg',
  'ico',
  'bmp',
  'tif',
  'tiff',
  'js',
  'mjs',
  'cjs',
  'css',
  'map',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
]);

const ASSET_RESOURCE_TYPES = new Set(['image', 'script', 'stylesheet', 'font']);

export function isStaticAsset(
  path: string,
  mimeType: string | undefined,
  resourceType: string | undefined,
): boolean {
  if (resourceType && ASSET_RESOURCE_TYPES.has(resourceType)) return true;
  if (mimeType) {
    const type = mimeType.split(';')[0]!.trim().toLowerCase();
    if (type.startsWith('image/') || type.startsWith('font/') || ASSET_TYPES.has(type)) return true;
  }
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 && ASSET_EXTENSIONS.has(last.slice(dot + 1).toLowerCase());
}
