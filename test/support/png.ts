/**
 * Reading a PNG screenshot's pixels, for tests that check what a browser drew: 8-bit greyscale, RGB or RGBA,
 * not interlaced (what headless Chromium writes), decoded with node:zlib.
 */
import { inflateSync } from 'node:zlib'

export interface Image {
  readonly width: number
  readonly height: number
  /** The pixel at (x, y) as `#rrggbb`. */
  color(x: number, y: number): string
}

/** Decode `png`. @throws for a PNG kind this reader does not handle. */
export function readPng(png: Buffer): Image {
  if (png.toString('latin1', 1, 4) !== 'PNG') throw new Error('not a PNG')
  let width = 0
  let height = 0
  let channels = 0
  const data: Buffer[] = []
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset)
    const type = png.toString('latin1', offset + 4, offset + 8)
    const body = png.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = body.readUInt32BE(0)
      height = body.readUInt32BE(4)
      const [depth, colorType, , , interlace] = body.subarray(8)
      channels = ({ 0: 1, 2: 3, 6: 4 } as Record<number, number>)[colorType!] ?? 0
      if (depth !== 8 || channels === 0 || interlace !== 0) throw new Error(`unsupported PNG: depth ${depth}, color type ${colorType}, interlace ${interlace}`)
    }
    if (type === 'IDAT') data.push(body)
    offset += 12 + length
  }
  const pixels = unfilter(inflateSync(Buffer.concat(data)), width, height, channels)
  return {
    width,
    height,
    color(x, y) {
      const at = (y * width + x) * channels
      const rgb = channels === 1 ? [pixels[at]!, pixels[at]!, pixels[at]!] : [pixels[at]!, pixels[at + 1]!, pixels[at + 2]!]
      return `#${rgb.map(value => value.toString(16).padStart(2, '0')).join('')}`
    },
  }
}

/** Undo the per-row filters (none, sub, up, average, Paeth). */
function unfilter(raw: Buffer, width: number, height: number, channels: number): Buffer {
  const stride = width * channels
  const out = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? out[y * stride + i - channels]! : 0
      const up = y > 0 ? out[(y - 1) * stride + i]! : 0
      const upLeft = y > 0 && i >= channels ? out[(y - 1) * stride + i - channels]! : 0
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter]
      if (predictor === undefined) throw new Error(`bad PNG filter ${filter}`)
      out[y * stride + i] = (row[i]! + predictor) & 0xff
    }
  }
  return out
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c
  const pa = Math.abs(p - a)
  const pb = Math.abs(p - b)
  const pc = Math.abs(p - c)
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}
