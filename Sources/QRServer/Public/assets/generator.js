// The generator page (seed 000): a text field, a Generate/Clear button, error-correction levels, a size
// slider with whole-pixel modules, colours, a logo, and PNG/SVG downloads of exactly the code shown.
import { apiErrorMessage, debounce, downloadBlob, hideMessage, LEVEL_PERCENT, showMessage } from './common.js';

const $ = (id) => document.getElementById(id);
const form = $('generator');
const text = $('text');
const toggle = $('toggle');
const logoInput = $('logo');
const removeLogo = $('remove-logo');
const slider = $('moduleSize');
const output = $('output');
const image = $('code');
const message = $('message');

/** What is on screen: the PNG blob shown, the fields it was made from, and its metadata. */
let shown = null;
/** Requests are numbered so that a slow, older answer never replaces a newer one. */
let sequence = 0;
let inFlight = null;
/** Whether the user picked a level; a logo switches to H only when they have not. */
let levelChosen = false;

function fields() {
  return {
    text: text.value,
    level: form.elements.level.value,
    moduleSize: slider.value,
    quietZone: $('quietZone').value,
    foreground: $('foreground').value,
    background: $('background').value,
    logo: logoInput.files[0] ?? null,
  };
}

function formData(values, format) {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) {
    if (name === 'logo') {
      if (value) data.append('logo', value, value.name);
    } else {
      data.append(name, value);
    }
  }
  data.append('format', format);
  return data;
}

function metadata(response) {
  const number = (name) => Number(response.headers.get(name));
  const warnings = response.headers.get('X-QR-Warnings');
  return {
    version: number('X-QR-Version'),
    level: response.headers.get('X-QR-Level'),
    mask: number('X-QR-Mask'),
    modules: number('X-QR-Modules'),
    moduleSize: number('X-QR-Module-Size'),
    imageSize: number('X-QR-Image-Size'),
    dataBits: number('X-QR-Data-Bits'),
    capacityBits: number('X-QR-Capacity-Bits'),
    logoShare: response.headers.get('X-QR-Logo-Share'),
    warnings: warnings ? decodeURIComponent(warnings).split('\n') : [],
  };
}

async function generate() {
  if (text.value === '') return;
  const values = fields();
  const mine = ++sequence;
  inFlight?.abort();
  inFlight = new AbortController();
  form.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch('/api/encode', {
      method: 'POST', body: formData(values, 'png'), signal: inFlight.signal,
    });
    if (mine !== sequence) return;
    if (!response.ok) {
      showMessage(message, 'error', await apiErrorMessage(response));
      return;
    }
    const blob = await response.blob();
    if (mine !== sequence) return;
    show(blob, values, metadata(response));
    hideMessage(message);
  } catch (error) {
    if (error.name !== 'AbortError') {
      showMessage(message, 'error', 'The server could not be reached. Is `qr serve` still running?');
    }
  } finally {
    if (mine === sequence) form.removeAttribute('aria-busy');
  }
}

function show(blob, values, meta) {
  const old = image.src;
  image.src = URL.createObjectURL(blob);
  if (old.startsWith('blob:')) URL.revokeObjectURL(old);
  // One image pixel per CSS pixel; image-rendering keeps modules sharp when the page is zoomed.
  image.width = meta.imageSize;
  image.height = meta.imageSize;
  image.alt = `QR code for: ${values.text}`;
  shown = { blob, values, meta };
  output.hidden = false;
  toggle.textContent = 'Clear';
  describe(meta);
}

function describe(meta) {
  const percent = Math.round((100 * meta.dataBits) / meta.capacityBits);
  $('size-label').textContent = `${meta.moduleSize} px per module · ${meta.imageSize} × ${meta.imageSize} px`;
  const parts = [
    `Version ${meta.version} (${meta.modules} × ${meta.modules} modules)`,
    `level ${meta.level} (${LEVEL_PERCENT[meta.level]} % recovery)`,
    `${meta.dataBits} of ${meta.capacityBits} data bits used (${percent} %)`,
  ];
  if (meta.logoShare) parts.push(`logo ${meta.logoShare} % of the area`);
  $('meta').textContent = parts.join(' · ');
  const list = $('warnings');
  list.replaceChildren(...meta.warnings.map((warning) => {
    const item = document.createElement('li');
    item.textContent = warning;
    return item;
  }));
}

/** Clear, as in the seed: the code, the text and the button title go back to the start. */
function clear() {
  sequence += 1;
  inFlight?.abort();
  regenerate.cancel();
  shown = null;
  const old = image.src;
  image.removeAttribute('src');
  if (old.startsWith('blob:')) URL.revokeObjectURL(old);
  output.hidden = true;
  toggle.textContent = 'Generate';
  text.value = '';
  hideMessage(message);
  text.focus();
}

const regenerate = debounce(generate, 250);

form.addEventListener('submit', (event) => {
  event.preventDefault();
  if (shown) {
    clear();
  } else {
    // Empty text does nothing, as in the seed.
    regenerate.cancel();
    generate();
  }
});

text.addEventListener('input', () => {
  if (text.value === '') {
    // Deleting all the text removes the code; the field stays as the user left it.
    regenerate.cancel();
    sequence += 1;
    inFlight?.abort();
    shown = null;
    output.hidden = true;
    toggle.textContent = 'Generate';
    return;
  }
  regenerate();
});

for (const radio of form.elements.level) {
  radio.addEventListener('change', () => {
    levelChosen = true;
    if (text.value !== '') generate();
  });
}
for (const id of ['foreground', 'background', 'quietZone']) {
  $(id).addEventListener('input', () => { if (text.value !== '') regenerate(); });
}
slider.addEventListener('input', () => { if (text.value !== '') regenerate(); });

logoInput.addEventListener('change', () => {
  const hasLogo = logoInput.files.length > 0;
  removeLogo.hidden = !hasLogo;
  // A logo hides modules: level H unless the user chose a level.
  if (hasLogo && !levelChosen) form.elements.level.value = 'H';
  if (text.value !== '') generate();
});
removeLogo.addEventListener('click', () => {
  logoInput.value = '';
  removeLogo.hidden = true;
  if (text.value !== '') generate();
});

function saved(filename) {
  showMessage(message, 'success', `Success! The QR code image was saved as ${filename}.`);
}

function failed(reason) {
  showMessage(message, 'error', `Failed! The QR code image was not saved: ${reason} Please try again.`);
}

$('save-png').addEventListener('click', () => {
  if (!shown) {
    failed('there is no code yet.');
    return;
  }
  try {
    downloadBlob(shown.blob, 'qr-code.png');
    saved('qr-code.png');
  } catch (error) {
    failed(`${error.message}.`);
  }
});

$('save-svg').addEventListener('click', async () => {
  if (!shown) {
    failed('there is no code yet.');
    return;
  }
  const { values, meta } = shown;
  try {
    const response = await fetch('/api/encode', { method: 'POST', body: formData(values, 'svg') });
    if (!response.ok) {
      failed(await apiErrorMessage(response));
      return;
    }
    // Same fields give the same symbol; check it, so the file is exactly the code on screen.
    const svgMeta = metadata(response);
    if (svgMeta.version !== meta.version || svgMeta.mask !== meta.mask || svgMeta.level !== meta.level) {
      failed('the code changed while it was being saved.');
      return;
    }
    downloadBlob(await response.blob(), 'qr-code.svg');
    saved('qr-code.svg');
  } catch {
    failed('the server could not be reached.');
  }
});

text.focus();
