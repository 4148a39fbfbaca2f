// The scanner page (seeds 001–003): an image from a file, a drop, the clipboard or the camera goes to
// /api/decode. One code is shown at once; several are outlined and numbered on the picture, and the
// user picks one by clicking or tapping near it (QRPicker's geometry) or from the list.
import { apiErrorMessage, hideMessage, LEVEL_PERCENT, showMessage, urlScheme, webLink } from './common.js';
import { DEFAULT_TOLERANCE, center, hit, viewMapping } from './geometry.js';

const $ = (id) => document.getElementById(id);
const status = $('status');
const picker = $('picker');
const stage = $('stage');
const photo = $('photo');
const overlay = $('overlay');
const list = $('code-list');
const result = $('result');
const video = $('video');
const SVG = 'http://www.w3.org/2000/svg';
/** The seed's outline colour. */
const OUTLINE = '#FF3B30';

/** The last decode: the codes, the size of the image they were found in, and the one selected. */
let scan = null;
let camera = null;

// MARK: Decoding

async function decode(blob, query = '') {
  const response = await fetch(`/api/decode${query}`, {
    method: 'POST',
    headers: { 'Content-Type': blob.type || 'application/octet-stream' },
    body: blob,
  });
  if (!response.ok) throw new Error(await apiErrorMessage(response));
  return response.json();
}

async function decodeImage(blob) {
  stopCamera();
  resetResults();
  showMessage(status, 'info', 'Reading the image…');
  let answer;
  try {
    // A PNM or TIFF file, which browsers cannot show, comes back with a PNG preview to draw the outlines on.
    answer = await decode(blob, '?preview=true');
  } catch (error) {
    showMessage(status, 'error', error.message);
    return;
  }
  present(answer, blob);
}

/** The seed's rule: none → say so; one → show it at once; several → let the user choose. */
function present(answer, blob) {
  const { codes } = answer;
  if (codes.length === 0) {
    showMessage(status, 'error', answer.timedOut
      ? 'No QR code was found in the time the server allows for one image. A smaller or cropped picture may read.'
      : 'No QR code was found in this image.');
    return;
  }
  if (codes.length === 1) {
    hideMessage(status);
    showResult(codes[0]);
    return;
  }
  showMessage(status, 'info', `${codes.length} QR codes found: choose one.`);
  scan = { codes, width: answer.width, height: answer.height, selected: null };
  const old = photo.src;
  photo.src = answer.preview || URL.createObjectURL(blob);
  if (old.startsWith('blob:')) URL.revokeObjectURL(old);
  $('picker-title').textContent = `${codes.length} codes in this picture`;
  list.replaceChildren(...codes.map((code, index) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.index = String(index);
    button.setAttribute('aria-pressed', 'false');
    const number = document.createElement('span');
    number.className = 'badge';
    number.textContent = String(index + 1);
    const label = document.createElement('span');
    label.className = 'preview';
    label.textContent = preview(code.text);
    button.append(number, label);
    button.addEventListener('click', () => select(index));
    item.append(button);
    return item;
  }));
  picker.hidden = false;
  photo.decode().catch(() => {}).finally(drawOutlines);
}

function preview(text) {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line || '(empty)';
}

// MARK: Outlines and picking

/** The stage's size in CSS pixels, fractions included (clientWidth would round them away). */
function stageSize() {
  const box = stage.getBoundingClientRect();
  return { width: box.width, height: box.height };
}

/** Where the image's pixels are in the stage: object-fit: contain is QRPicker's aspectFit. */
function mapping() {
  const size = stageSize();
  return viewMapping(scan.width, scan.height, size.width, size.height, 'aspectFit');
}

function viewQuads() {
  const map = mapping();
  return scan.codes.map((code) => map.quadToView(code.corners));
}

function drawOutlines() {
  if (!scan) return;
  const size = stageSize();
  overlay.setAttribute('viewBox', `0 0 ${size.width} ${size.height}`);
  const shapes = viewQuads().flatMap((quad, index) => {
    const polygon = document.createElementNS(SVG, 'polygon');
    polygon.setAttribute('points', quad.map((p) => `${p.x},${p.y}`).join(' '));
    polygon.setAttribute('stroke', OUTLINE);
    polygon.setAttribute('stroke-width', '3');
    polygon.setAttribute('class', index === scan.selected ? 'outline selected' : 'outline');
    const middle = center(quad);
    const badge = document.createElementNS(SVG, 'circle');
    badge.setAttribute('cx', String(middle.x));
    badge.setAttribute('cy', String(middle.y));
    badge.setAttribute('r', '14');
    badge.setAttribute('fill', OUTLINE);
    const label = document.createElementNS(SVG, 'text');
    label.setAttribute('x', String(middle.x));
    label.setAttribute('y', String(middle.y));
    label.setAttribute('class', 'badge-text');
    label.textContent = String(index + 1);
    return [polygon, badge, label];
  });
  overlay.replaceChildren(...shapes);
}

function select(index) {
  scan.selected = index;
  for (const button of list.querySelectorAll('button')) {
    button.setAttribute('aria-pressed', String(Number(button.dataset.index) === index));
  }
  drawOutlines();
  showResult(scan.codes[index], index);
}

stage.addEventListener('click', (event) => {
  if (!scan) return;
  const box = stage.getBoundingClientRect();
  const point = { x: event.clientX - box.left, y: event.clientY - box.top };
  const index = hit(point, viewQuads(), DEFAULT_TOLERANCE);
  if (index === null) {
    showMessage(status, 'info', 'That is not on a code: click or tap inside one of the red outlines.');
    return;
  }
  hideMessage(status);
  select(index);
});

new ResizeObserver(drawOutlines).observe(stage);

// MARK: The result

function showResult(code, index = null) {
  $('result-title').textContent = index === null ? 'Content' : `Content of code ${index + 1}`;
  $('result-text').textContent = code.text;
  const link = webLink(code.text);
  const open = $('open-link');
  const note = $('link-note');
  if (link) {
    open.href = link.href;
    open.hidden = false;
    note.hidden = true;
  } else {
    open.removeAttribute('href');
    open.hidden = true;
    const scheme = urlScheme(code.text);
    note.hidden = scheme === null;
    note.textContent = scheme === null ? ''
      : `This ${scheme} address is shown as text only: links open only for http, https, mailto and tel addresses.`;
  }
  fillDetails(code);
  result.hidden = false;
  result.scrollIntoView({ block: 'nearest' });
}

function fillDetails(code) {
  const rows = [
    ['Symbology', code.symbology],
    ['Version', `${code.versionName} (${code.columns} × ${code.rows} modules)`],
    ['Error correction', `${code.level} (${LEVEL_PERCENT[code.level]} % recovery)`],
    ['Mask', String(code.mask)],
    ['Charset', code.charset ? `${code.charset}${code.charsetGuessed ? ' (guessed)' : ''}` : '—'],
    ['Bytes', String(atob(code.bytesBase64).length)],
    ['Corrected codewords', `${code.correctedCodewords} of ${code.correctableCodewords} correctable`],
    ['Mirrored', code.mirrored ? 'yes' : 'no'],
    ['Light on dark', code.inverted ? 'yes' : 'no'],
  ];
  if (code.eci.length > 0) rows.push(['ECI', code.eci.join(', ')]);
  if (code.fnc1) rows.push(['FNC1', code.fnc1]);
  if (code.structuredAppend) {
    const { index, count } = code.structuredAppend;
    rows.push(['Structured Append', code.parts.length > 0
      ? `${code.parts.length} symbols joined` : `symbol ${index + 1} of ${count}`]);
  }
  rows.push(['Corners (px)', code.corners.map((p) => `(${Math.round(p.x)}, ${Math.round(p.y)})`).join(' ')]);
  $('details-list').replaceChildren(...rows.flatMap(([term, value]) => {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    return [dt, dd];
  }));
}

function resetResults() {
  scan = null;
  picker.hidden = true;
  result.hidden = true;
  overlay.replaceChildren();
  list.replaceChildren();
}

$('copy').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText($('result-text').textContent);
    showMessage(status, 'success', 'Copied to the clipboard.');
  } catch {
    showMessage(status, 'error', 'The browser did not allow copying; select the text and copy it by hand.');
  }
});

// MARK: Files, drops and the clipboard

$('file').addEventListener('change', (event) => {
  const [file] = event.target.files;
  if (file) decodeImage(file);
  event.target.value = '';
});

const zone = $('inputs');
zone.addEventListener('dragover', (event) => {
  event.preventDefault();
  zone.classList.add('dragging');
});
zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
zone.addEventListener('drop', (event) => {
  event.preventDefault();
  zone.classList.remove('dragging');
  const file = [...event.dataTransfer.files].find((f) => f.type.startsWith('image/') || f.type === '');
  if (file) decodeImage(file);
  else showMessage(status, 'error', 'That is not an image file.');
});

document.addEventListener('paste', (event) => {
  const item = [...(event.clipboardData?.items ?? [])].find((i) => i.kind === 'file' && i.type.startsWith('image/'));
  if (!item) return;
  event.preventDefault();
  decodeImage(item.getAsFile());
});

$('paste').addEventListener('click', async () => {
  if (!navigator.clipboard?.read) {
    showMessage(status, 'error', 'This browser cannot read images from the clipboard here: press Ctrl+V instead.');
    return;
  }
  try {
    for (const item of await navigator.clipboard.read()) {
      const type = item.types.find((t) => t.startsWith('image/'));
      if (type) {
        decodeImage(await item.getType(type));
        return;
      }
    }
    showMessage(status, 'error', 'The clipboard holds no image.');
  } catch {
    showMessage(status, 'error', 'The browser did not allow reading the clipboard: press Ctrl+V instead.');
  }
});

// MARK: The camera (seed 001): rear camera, a region of interest, stop at the first code

/** The frame's side as a share of the video's shorter side. */
const ROI_SHARE = 0.6;

function cameraErrorMessage(error) {
  switch (error.name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'Camera permission was denied. Allow the camera for this site in the browser settings, or choose an image instead.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'No camera was found. Connect one, or choose an image instead.';
    case 'NotReadableError':
      return 'The camera is in use by another application.';
    default:
      return `The camera could not be started: ${error.message}`;
  }
}

/** The region of interest as fractions of the video frame: a centred square. */
function regionOfInterest() {
  const w = video.videoWidth;
  const h = video.videoHeight;
  const side = ROI_SHARE * Math.min(w, h);
  return { x: (w - side) / 2 / w, y: (h - side) / 2 / h, width: side / w, height: side / h };
}

function placeFrame() {
  const roi = regionOfInterest();
  const frame = $('roi');
  // CSSOM, not a style attribute: the content security policy allows it.
  frame.style.left = `${roi.x * 100}%`;
  frame.style.top = `${roi.y * 100}%`;
  frame.style.width = `${roi.width * 100}%`;
  frame.style.height = `${roi.height * 100}%`;
}

async function startCamera() {
  resetResults();
  if (!navigator.mediaDevices?.getUserMedia) {
    showMessage(status, 'error', 'This browser cannot use a camera here: the camera needs https or localhost.');
    return;
  }
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false });
  } catch (error) {
    showMessage(status, 'error', cameraErrorMessage(error));
    return;
  }
  stopCamera();
  camera = { stream, running: true };
  video.srcObject = stream;
  $('camera').hidden = false;
  showMessage(status, 'info', 'Scanning…');
  try {
    await video.play();
  } catch (error) {
    stopCamera();
    showMessage(status, 'error', cameraErrorMessage(error));
    return;
  }
  placeFrame();
  scanFrames(camera);
}

function stopCamera() {
  if (!camera) return;
  camera.running = false;
  for (const track of camera.stream.getTracks()) track.stop();
  video.srcObject = null;
  camera = null;
  $('camera').hidden = true;
}

const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** Sends frames one after another until a code is read in the frame or the camera is stopped. */
async function scanFrames(session) {
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: false });
  while (session.running) {
    if (video.readyState >= 2 && video.videoWidth > 0) {
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      context.drawImage(video, 0, 0);
      const roi = regionOfInterest();
      const region = [roi.x, roi.y, roi.width, roi.height].map((v) => v.toFixed(4)).join(',');
      const frame = await new Promise((resolve) => { canvas.toBlob(resolve, 'image/jpeg', 0.92); });
      if (!session.running) return;
      try {
        const answer = await decode(frame, `?accuracy=fast&max=1&region=${region}`);
        if (!session.running) return;
        if (answer.codes.length > 0) {
          stopCamera();
          hideMessage(status);
          showResult(answer.codes[0]);
          return;
        }
      } catch (error) {
        showMessage(status, 'error', `${error.message} Still trying…`);
      }
    }
    await pause(150);
  }
}

$('camera-start').addEventListener('click', startCamera);
$('camera-stop').addEventListener('click', () => {
  stopCamera();
  hideMessage(status);
});
window.addEventListener('pagehide', stopCamera);
