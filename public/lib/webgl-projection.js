import { newCanvas } from './new-canvas.js';

const VERTEX_SHADER = `#version 300 es
in vec4 position;
in vec2 uv;
out vec2 sampleAt;
void main() {
  gl_Position = position;
  sampleAt = uv;
}`;

const FRAGMENT_SHADER = `#version 300 es
precision highp float;
uniform sampler2D raster;
in vec2 sampleAt;
out vec4 color;
void main() {
  color = texture(raster, sampleAt);
}`;

/**
 * Draws a raster through a projective matrix exactly, with WebGL 2: the rect's four corners go
 * to the GPU in homogeneous coordinates (X, Y, W), so the raster is sampled perspective-correct
 * across two triangles, and the parts behind the eye (W ≤ 0) are clipped away by the GPU. This
 * replaces the 2D mesh (mesh.js) of hundreds of clipped triangles wherever WebGL 2 is there; the
 * result is an image with premultiplied alpha that the renderer composites with its 2D context.
 */
export class WebGLProjection {
  /** A projection on a canvas of its own, or null where WebGL 2 (or its shaders) is missing. */
  static create() {
    try {
      const canvas = newCanvas(1, 1);
      const gl = canvas.getContext('webgl2', { antialias: true, premultipliedAlpha: true, depth: false, stencil: false });
      return gl ? new WebGLProjection(canvas, gl) : null;
    } catch {
      return null;
    }
  }

  constructor(canvas, gl) {
    /** The canvas drawn on: the last `draw` fills its top-left `width` × `height` pixels. */
    this.canvas = canvas;
    this.gl = gl;
    const program = gl.createProgram();
    for (const [type, source] of [[gl.VERTEX_SHADER, VERTEX_SHADER], [gl.FRAGMENT_SHADER, FRAGMENT_SHADER]]) {
      const shader = gl.createShader(type);
      gl.shaderSource(shader, source);
      gl.compileShader(shader);
      gl.attachShader(program, shader);
    }
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(program) ?? 'link failed');
    gl.useProgram(program);
    /** Six vertices of (X, Y, 0, W, u, v): the rect's two triangles, refilled on each draw. */
    this.vertices = new Float32Array(36);
    gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
    const position = gl.getAttribLocation(program, 'position');
    const uv = gl.getAttribLocation(program, 'uv');
    gl.enableVertexAttribArray(position);
    gl.vertexAttribPointer(position, 4, gl.FLOAT, false, 24, 0);
    gl.enableVertexAttribArray(uv);
    gl.vertexAttribPointer(uv, 2, gl.FLOAT, false, 24, 16);
    gl.bindTexture(gl.TEXTURE_2D, gl.createTexture());
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
    for (const [name, value] of [
      [gl.TEXTURE_MIN_FILTER, gl.LINEAR], [gl.TEXTURE_MAG_FILTER, gl.LINEAR],
      [gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE], [gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE],
    ]) gl.texParameteri(gl.TEXTURE_2D, name, value);
    gl.enable(gl.SCISSOR_TEST);
    gl.clearColor(0, 0, 0, 0);
    /** The key of the contents the texture holds (null: none). */
    this.uploaded = null;
  }

  /**
   * Draws `contents` over `targetRect` [x, y, w, h] (item space) through `m` (9 numbers, item
   * space to the pixels of a `width` × `height` box) onto the canvas's top-left `width` ×
   * `height` pixels, cleared first. `contents.raster()` gives the raster ({canvas, width, height}
   * of its top-left pixels, or null when empty); it is not asked for when the texture already
   * holds `contents.key` (compared with ===). With `contents.mipmaps` the texture gets mipmaps,
   * for a raster that may be drawn much smaller than it is. Returns false, drawing nothing, once
   * the context is lost (the caller falls back to the 2D mesh).
   */
  draw(contents, targetRect, m, width, height) {
    const gl = this.gl;
    if (gl.isContextLost()) return false;
    if (contents.key !== this.uploaded) {
      const raster = contents.raster();
      if (raster) {
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, raster.width, raster.height, 0, gl.RGBA, gl.UNSIGNED_BYTE, raster.canvas);
        // An image drawn at any size is sampled from the level of its size on screen.
        if (contents.mipmaps) gl.generateMipmap(gl.TEXTURE_2D);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, contents.mipmaps ? gl.LINEAR_MIPMAP_LINEAR : gl.LINEAR);
      }
      this.uploaded = raster ? contents.key : null;
    }
    // The canvas only grows, so that a turning cover does not reallocate it every frame.
    if (this.canvas.width < width) this.canvas.width = width;
    if (this.canvas.height < height) this.canvas.height = height;
    // GL's rows run bottom-up: the box is the viewport at the canvas's top-left corner.
    const bottom = this.canvas.height - height;
    gl.viewport(0, bottom, width, height);
    gl.scissor(0, bottom, width, height);
    gl.clear(gl.COLOR_BUFFER_BIT);
    if (this.uploaded === null) return true; // empty contents
    const [x, y, w, h] = targetRect;
    const corners = [[x, y, 0, 0], [x + w, y, 1, 0], [x + w, y + h, 1, 1], [x, y + h, 0, 1]];
    let at = 0;
    for (const corner of [0, 1, 2, 0, 2, 3]) {
      const [px, py, u, v] = corners[corner];
      const W = m[6] * px + m[7] * py + m[8];
      // Pixels to clip space, multiplied through by W so that the GPU's divide undoes it.
      this.vertices.set([(2 * (m[0] * px + m[2] * py + m[4])) / width - W, W - (2 * (m[1] * px + m[3] * py + m[5])) / height, 0, W, u, v], at);
      at += 6;
    }
    gl.bufferData(gl.ARRAY_BUFFER, this.vertices, gl.DYNAMIC_DRAW);
    gl.drawArrays(gl.TRIANGLES, 0, 6);
    return true;
  }
}
