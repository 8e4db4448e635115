// Files on their way to becoming messages: each is uploaded first (§9.3), then sent through the outbox naming its
// attachment. Until then it shows in its chat as pending (an image from the local file), or as failed with the
// server's reason, to be retried or discarded. Uploads live only as long as the page: a File cannot be kept.

export class Uploads {
  /**
   * upload(file, durationMs): resolves with the attachment (§9.3; `durationMs` only for a voice recording).
   * onUploaded(roomID, attachment): the file is stored; send the message.
   * onChange(roomID): an upload of that room was added, changed or removed.
   * maxBytes(): the server's upload limit (§9.7): a larger file fails at once with `too_large`, without uploading.
   */
  constructor({ upload, onUploaded, onChange, maxBytes }) {
    Object.assign(this, { upload, onUploaded, onChange, maxBytes });
    this.byRoom = new Map(); // room id → [{localID, file, durationMs, previewURL, state, error, createdAt}]
  }

  async add(roomID, file, { durationMs = null } = {}) {
    const entry = {
      localID: `upload-${Date.now()}-${Math.random().toString(36).slice(2)}`,
      file,
      durationMs,
      previewURL: file.type.startsWith('image/') ? URL.createObjectURL(file) : null,
      state: 'pending',
      createdAt: Date.now(),
    };
    this.forRoom(roomID).push(entry);
    this.onChange(roomID);
    await this.run(roomID, entry);
  }

  async run(roomID, entry) {
    if (entry.file.size > this.maxBytes()) {
      entry.state = 'failed';
      entry.error = 'too_large';
      this.onChange(roomID);
      return;
    }
    try {
      const attachment = await this.upload(entry.file, entry.durationMs);
      this.remove(roomID, entry);
      this.onUploaded(roomID, attachment);
    } catch (error) {
      entry.state = 'failed';
      entry.error = error.code;
      this.onChange(roomID);
    }
  }

  retry(roomID, localID) {
    const entry = this.find(roomID, localID);
    if (!entry || entry.state !== 'failed') return;
    entry.state = 'pending';
    this.onChange(roomID);
    this.run(roomID, entry);
  }

  discard(roomID, localID) {
    const entry = this.find(roomID, localID);
    if (entry) this.remove(roomID, entry);
  }

  find(roomID, localID) {
    return this.forRoom(roomID).find((candidate) => candidate.localID === localID);
  }

  forRoom(roomID) {
    if (!this.byRoom.has(roomID)) this.byRoom.set(roomID, []);
    return this.byRoom.get(roomID);
  }

  /** Whether any file is still uploading or failed (it would be lost with the page). */
  any() {
    return [...this.byRoom.values()].some((entries) => entries.length > 0);
  }

  remove(roomID, entry) {
    const entries = this.forRoom(roomID);
    entries.splice(entries.indexOf(entry), 1);
    if (entry.previewURL) URL.revokeObjectURL(entry.previewURL);
    this.onChange(roomID);
  }
}
