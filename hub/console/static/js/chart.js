// Small SVG charts drawn here rather than pulled in as a dependency: stacked bars per bucket.
import { h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';

function s(tag, attrs = {}, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  if (text !== undefined) el.textContent = String(text);
  return el;
}

/**
 * Stacked bars: buckets [{label, values: {series: n}}], series [{key, name, tone}].
 * The figure carries a caption and a legend; each bar has a <title> with its numbers.
 */
export function stackedBars(caption, buckets, series) {
  const width = 600, height = 180, pad = 24;
  const totals = buckets.map((b) => series.reduce((sum, x) => sum + (b.values[x.key] || 0), 0));
  const max = Math.max(1, ...totals);
  const step = (width - pad) / Math.max(1, buckets.length);
  const svg = s('svg', { viewBox: `0 0 ${width} ${height + 20}`, role: 'img', class: 'chart', 'aria-label': caption });
  svg.append(s('line', { x1: pad, y1: height, x2: width, y2: height, class: 'axis' }));
  svg.append(s('text', { x: 0, y: 12, class: 'tick' }, max));
  buckets.forEach((bucket, i) => {
    let y = height;
    const group = s('g', {});
    group.append(s('title', {}, `${bucket.label}: ${series.map((x) => `${x.name} ${bucket.values[x.key] || 0}`).join(', ')}`));
    for (const x of series) {
      const value = bucket.values[x.key] || 0;
      const barHeight = (value / max) * (height - pad);
      y -= barHeight;
      group.append(s('rect', { x: pad + i * step + 1, y, width: Math.max(1, step - 2), height: barHeight, class: `bar-${x.tone}` }));
    }
    svg.append(group);
  });
  if (buckets.length) {
    svg.append(s('text', { x: pad, y: height + 16, class: 'tick' }, buckets[0].label));
    svg.append(s('text', { x: width, y: height + 16, class: 'tick', 'text-anchor': 'end' }, buckets[buckets.length - 1].label));
  }
  const legend = h('ul', { class: 'legend' }, series.map((x) => h('li', {}, h('span', { class: `swatch bar-${x.tone}` }), x.name)));
  return h('figure', { class: 'chart-box' }, h('figcaption', {}, caption), svg, legend);
}

/** Percentile (0..100) of a list of numbers; null for an empty list. */
export function percentile(values, p) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}
