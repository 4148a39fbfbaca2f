// Image ↔ view mapping and hit testing, the same geometry as QRKit's QRPicker (ViewMapping, HitTester,
// Quadrilateral), so a tap in the page picks the code the library would pick. Points are {x, y}; a
// quadrilateral is an array of four points: the symbol's top-left, top-right, bottom-right, bottom-left.

/** The seed apps accept a tap this many points (CSS pixels) outside a code. */
export const DEFAULT_TOLERANCE = 10;

/**
 * How an image of imageWidth × imageHeight is shown in a view of viewWidth × viewHeight.
 * mode: 'aspectFit' (CSS object-fit: contain), 'aspectFill' (cover), 'center' (none) or 'stretch' (fill).
 * origin: 'topLeft' (pixels, the API's corners) or 'bottomLeft' (Core Image's bounds).
 */
export function viewMapping(imageWidth, imageHeight, viewWidth, viewHeight, mode = 'aspectFit', origin = 'topLeft') {
  const sx = imageWidth > 0 ? viewWidth / imageWidth : 1;
  const sy = imageHeight > 0 ? viewHeight / imageHeight : 1;
  let scaleX;
  let scaleY;
  switch (mode) {
    case 'aspectFit': scaleX = scaleY = Math.min(sx, sy); break;
    case 'aspectFill': scaleX = scaleY = Math.max(sx, sy); break;
    case 'center': scaleX = scaleY = 1; break;
    case 'stretch': scaleX = sx; scaleY = sy; break;
    default: throw new RangeError(`unknown content mode ${mode}`);
  }
  const offsetX = (viewWidth - imageWidth * scaleX) / 2;
  const offsetY = (viewHeight - imageHeight * scaleY) / 2;
  const flip = origin === 'bottomLeft';
  const toView = (p) => ({
    x: offsetX + p.x * scaleX,
    y: offsetY + (flip ? imageHeight - p.y : p.y) * scaleY,
  });
  const toImage = (p) => {
    const y = (p.y - offsetY) / scaleY;
    return { x: (p.x - offsetX) / scaleX, y: flip ? imageHeight - y : y };
  };
  return { scaleX, scaleY, offsetX, offsetY, toView, toImage, quadToView: (quad) => quad.map(toView) };
}

function distanceBetween(a, b) {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function distanceToBorder(quad, p) {
  let best = Infinity;
  for (let i = 0; i < 4; i += 1) {
    const a = quad[i];
    const b = quad[(i + 1) % 4];
    const abx = b.x - a.x;
    const aby = b.y - a.y;
    const lengthSquared = abx * abx + aby * aby;
    const t = lengthSquared > 0
      ? Math.min(1, Math.max(0, ((p.x - a.x) * abx + (p.y - a.y) * aby) / lengthSquared))
      : 0;
    best = Math.min(best, distanceBetween(p, { x: a.x + abx * t, y: a.y + aby * t }));
  }
  return best;
}

/** Whether p lies inside or on the border of quad (even–odd rule, so any simple quadrilateral works). */
export function contains(quad, p) {
  let inside = false;
  let j = 3;
  for (let i = 0; i < 4; i += 1) {
    const a = quad[i];
    const b = quad[j];
    if ((a.y > p.y) !== (b.y > p.y)) {
      const xCross = (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x;
      if (p.x < xCross) inside = !inside;
    }
    j = i;
  }
  return inside || distanceToBorder(quad, p) < 1e-9;
}

/** 0 inside the quadrilateral, else the distance to its nearest edge. */
export function distance(quad, p) {
  return contains(quad, p) ? 0 : distanceToBorder(quad, p);
}

export function center(quad) {
  return {
    x: (quad[0].x + quad[1].x + quad[2].x + quad[3].x) / 4,
    y: (quad[0].y + quad[1].y + quad[2].y + quad[3].y) / 4,
  };
}

/**
 * The index of the quadrilateral p hits: one containing it (the one whose centre is nearest when they
 * overlap), else the nearest within tolerance, else null.
 */
export function hit(p, quads, tolerance = DEFAULT_TOLERANCE) {
  let best = null;
  quads.forEach((quad, index) => {
    const d = distance(quad, p);
    if (d > tolerance) return;
    const c = distanceBetween(center(quad), p);
    if (best !== null && (d > best.d || (d === best.d && c >= best.c))) return;
    best = { index, d, c };
  });
  return best === null ? null : best.index;
}
