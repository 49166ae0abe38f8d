/**
 * The images a room's frames can name (`welcome.assets`), loaded once per URL and kept across
 * reconnects.
 */
export class AssetStore {
  constructor() {
    /** @type {Map<string, {url: string, width: number, height: number}>} */
    this.table = new Map();
    /** @type {Map<string, {image: HTMLImageElement, ready: boolean}>} */
    this.images = new Map();
  }

  /**
   * Takes the asset table of a `welcome` (`{id: {url, width, height}}`, URLs relative to
   * `base`) and starts loading the images not loaded yet.
   */
  update(assets, base) {
    this.table.clear();
    for (const [id, asset] of Object.entries(assets ?? {})) {
      const url = new URL(asset.url, base).href;
      this.table.set(id, { url, width: asset.width, height: asset.height });
      if (!this.images.has(url)) this.load(url);
    }
  }

  /**
   * The image `id` ready to draw, as `{image, width, height}` (natural size in points), or
   * null while it loads, when it failed to load, or when the table has no such id.
   */
  get(id) {
    const asset = this.table.get(id);
    const entry = asset && this.images.get(asset.url);
    return entry?.ready ? { image: entry.image, width: asset.width, height: asset.height } : null;
  }

  /** Starts loading `url`; the entry becomes ready when the image has decoded. */
  load(url) {
    const image = new Image();
    const entry = { image, ready: false };
    image.decoding = 'async';
    image.onload = () => {
      entry.ready = true;
    };
    image.src = url;
    this.images.set(url, entry);
  }
}
