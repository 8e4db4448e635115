// "Change picture" and "Remove picture" for my profile or a room (§6.5, §7.7): a file chooser, the crop dialog
// (avatarCrop.js), then the upload; what the server refuses (not an image, too large) is said under the buttons.
import { el } from '../dom.js';
import { describeError, t } from '../strings.js';
import { cropPicture } from './avatarCrop.js';

/**
 * The buttons and their status line. `save(blob)` and `remove()` talk to the server; `hasPicture()` says whether
 * Remove is offered. `id` prefixes the elements' ids (`me`, `room`).
 */
export function pictureControls({ id, save, remove, hasPicture }) {
  const status = el('p', { className: 'form-status picture-status', id: `${id}-picture-status`, role: 'status' });
  const removeButton = el('button', {
    type: 'button', className: 'button', id: `${id}-remove-picture`, text: t('removePicture'), hidden: !hasPicture(),
    on: { click: () => run(remove, t('pictureRemoved')) },
  });
  const input = el('input', {
    type: 'file', accept: 'image/*', className: 'visually-hidden', id: `${id}-picture-file`, tabindex: '-1', 'aria-hidden': 'true',
    on: { change: () => picked() },
  });

  async function run(action, done) {
    status.textContent = '';
    try {
      await action();
      status.textContent = done;
      removeButton.hidden = !hasPicture();
    } catch (error) {
      status.textContent = describeError(error);
    }
  }

  const changeButton = el('button', {
    type: 'button', className: 'button', id: `${id}-change-picture`, text: t('changePicture'), on: { click: () => input.click() },
  });

  async function picked() {
    const file = input.files[0];
    input.value = '';
    if (!file) return;
    const image = await loaded(file);
    // A file the browser cannot show goes to the server as it is, so the person hears the server's reason.
    const picture = image ? await cropPicture(image, changeButton) : file;
    if (picture) await run(() => save(picture), t('pictureSaved'));
  }

  return el('div', { className: 'picture-controls' },
    el('div', { className: 'picture-buttons' },
      changeButton,
      removeButton,
      input),
    status);
}

/** The file as a loaded image, or null when it is not one the browser can draw. */
async function loaded(file) {
  const url = URL.createObjectURL(file);
  const image = new Image();
  image.src = url;
  try {
    await image.decode();
    return image;
  } catch {
    return null;
  } finally {
    URL.revokeObjectURL(url);
  }
}
