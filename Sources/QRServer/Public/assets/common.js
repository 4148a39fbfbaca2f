// Helpers shared by the pages. Text from the server or from a QR code is only ever set with textContent.

/** Shows a message in a status element; kind is 'info', 'success' or 'error'. */
export function showMessage(element, kind, text) {
  element.textContent = text;
  element.dataset.kind = kind;
  element.hidden = false;
}

export function hideMessage(element) {
  element.hidden = true;
  element.textContent = '';
}

/** The user-facing message of a failed API response ({"error": {"message": …}}), or a generic one. */
export async function apiErrorMessage(response) {
  try {
    const body = await response.json();
    if (body && body.error && typeof body.error.message === 'string') return body.error.message;
  } catch {
    // Not JSON: fall through to the status line.
  }
  return `The server answered ${response.status} ${response.statusText}.`.replace(/ \.$/, '.');
}

/** The schemes a decoded text may open: web pages, a new e-mail, a phone call. */
export const LINK_SCHEMES = ['http:', 'https:', 'mailto:', 'tel:'];

/**
 * The URL to offer as a link for decoded text, or null. Only LINK_SCHEMES open: a QR code is
 * attacker-controlled, and javascript:, data: or other schemes must never be navigated to.
 */
export function webLink(text) {
  let url;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  return LINK_SCHEMES.includes(url.protocol) ? url : null;
}

/** The scheme of text that parses as an absolute URL (such as "javascript:"), or null. */
export function urlScheme(text) {
  try {
    return new URL(text.trim()).protocol;
  } catch {
    return null;
  }
}

/** Hands a blob to the browser as a download named filename. */
export function downloadBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy by the time this runs.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Calls fn once no call has come for delay milliseconds. */
export function debounce(fn, delay) {
  let timer = null;
  const debounced = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), delay);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}

export const LEVEL_PERCENT = { L: 7, M: 15, Q: 25, H: 30 };
