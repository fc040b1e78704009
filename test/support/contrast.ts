// WCAG 2 contrast of hex colours (#rrggbb, or #rrggbbaa layered over a background), as axe-core computes it.

export type Rgb = [number, number, number]

export const parseHex = (hex: string): { rgb: Rgb; alpha: number } => {
  const digits = hex.replace('#', '')
  const rgb = [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16)) as Rgb
  return { rgb, alpha: digits.length === 8 ? parseInt(digits.slice(6), 16) / 255 : 1 }
}

/** `layer` drawn over `base`, its alpha blended. */
export const over = (base: Rgb, layer: string): Rgb => {
  const { rgb, alpha } = parseHex(layer)
  return base.map((channel, i) => rgb[i] * alpha + channel * (1 - alpha)) as Rgb
}

const luminance = (rgb: Rgb): number => {
  const [r, g, b] = rgb.map((channel) => {
    const c = channel / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

export const contrast = (a: Rgb, b: Rgb): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light + 0.05) / (dark + 0.05)
}
