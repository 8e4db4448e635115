// One of my bots in Me → Bots (PROTOCOL.md §9.13): its name, a new token (the old one stops working), its webhook
// URL (set or removed; the signing key of a new URL is shown once), the deliveries to that URL, and Delete. Secrets
// show inside the row that made them, once.
import { el, replaceChildren } from '../dom.js';
import { avatarElement, profileAvatar } from '../avatar.js';
import { describeError, t } from '../strings.js';
import { formatDateTime } from '../time.js';
import { secretOnce } from './secretOnce.js';

export class BotRow {
  /** `onDeleted(bot)`: the bot is gone (the list loads again). */
  constructor(client, bot, { onDeleted }) {
    Object.assign(this, { client, bot, onDeleted });
    this.integrations = client.integrations;
    const key = bot.username;
    this.secret = el('div', { className: 'created-secret' });
    this.status = el('p', { className: 'form-status bot-status', role: 'status' });
    const nameID = `bot-name-${key}`;
    // The row's buttons say which bot they act on: their words, described by the bot's name.
    const action = (className, label, onClick) => el('button', {
      type: 'button', className: `link-button ${className}`, text: label, 'aria-describedby': nameID, on: { click: onClick },
    });
    this.webhookInput = el('input', {
      type: 'url', id: `bot-webhook-${key}`, className: 'text-input', spellcheck: 'false', maxlength: '1024',
      placeholder: 'https://', 'aria-label': t('botWebhookURL', { name: key }), 'aria-describedby': 'bot-webhook-hint',
    });
    this.deliveriesButton = action('show-deliveries', t('deliveries'), () => this.toggleDeliveries());
    this.deliveriesButton.setAttribute('aria-expanded', 'false');
    this.deliveriesButton.setAttribute('aria-controls', `bot-deliveries-${key}`);
    this.deliveries = el('ul', {
      className: 'delivery-list', id: `bot-deliveries-${key}`, hidden: true, 'aria-label': t('showDeliveries', { name: key }),
    });
    this.element = el('li', { className: 'bot-row', dataset: { username: key } },
      el('div', { className: 'admin-row' },
        avatarElement(profileAvatar(bot)),
        el('span', { className: 'admin-row-main' },
          el('span', { className: 'admin-row-title' },
            el('span', { className: 'admin-row-name', id: nameID, text: bot.displayName || key }),
            el('span', { className: 'tag tag-bot', text: t('badge_bot') })),
          el('span', { className: 'admin-row-detail', text: `@${key}` }))),
      el('form', { className: 'bot-webhook-form', noValidate: true, on: { submit: (event) => this.saveWebhook(event) } },
        el('label', { className: 'bot-webhook-label', for: this.webhookInput.id, text: t('webhookURL') }),
        el('div', { className: 'inline-form-row' },
          this.webhookInput,
          el('button', { type: 'submit', className: 'button save-webhook', text: t('save'), 'aria-describedby': nameID }))),
      el('div', { className: 'bot-actions' },
        action('new-token', t('newToken'), () => this.newToken()),
        action('remove-webhook', t('removeWebhookURL'), () => this.removeWebhook()),
        this.deliveriesButton,
        action('danger-link delete-bot', t('deleteBot'), () => this.delete())),
      this.status,
      this.secret,
      this.deliveries);
  }

  /** A new token, once asked: the old one stops working at once, so a program using it must be given the new one. */
  async newToken() {
    if (!window.confirm(t('confirmNewToken', { name: this.bot.username }))) return;
    await this.act(async () => {
      const { token } = await this.integrations.newToken(this.bot.id);
      this.showSecret('token', t('botToken', { name: this.bot.username }), token, t('tokenShownOnce'));
    });
  }

  async saveWebhook(event) {
    event.preventDefault();
    const url = this.webhookInput.value.trim();
    if (!url) {
      this.webhookInput.focus();
      return;
    }
    await this.act(async () => {
      const { webhookSecret } = await this.integrations.setWebhook(this.bot.id, url);
      this.status.textContent = t('webhookURLSaved');
      this.showSecret('secret', t('webhookSecret', { name: this.bot.username }), webhookSecret, t('secretShownOnce'));
    }, this.webhookInput);
  }

  async removeWebhook() {
    await this.act(async () => {
      await this.integrations.setWebhook(this.bot.id, null);
      this.webhookInput.value = '';
      this.status.textContent = t('webhookURLRemoved');
    });
  }

  async toggleDeliveries() {
    const open = this.deliveries.hidden;
    this.deliveries.hidden = !open;
    this.deliveriesButton.setAttribute('aria-expanded', String(open));
    if (!open) return;
    replaceChildren(this.deliveries, el('li', { className: 'list-note', text: t('loading') }));
    try {
      const deliveries = await this.integrations.deliveries(this.bot.id);
      replaceChildren(this.deliveries, deliveries.length === 0
        ? el('li', { className: 'list-note', text: t('noDeliveries') })
        : deliveries.map((delivery) => this.deliveryRow(delivery)));
    } catch (error) {
      replaceChildren(this.deliveries, el('li', { className: 'list-note', text: botErrorText(error) }));
    }
  }

  /** Where the message was, when, and what the bot's URL answered. */
  deliveryRow({ room, seq, outcome, date }) {
    const roomName = this.client.store.rooms.get(room)?.name ?? room;
    const failed = outcome?.startsWith('failed');
    const result = failed ? t('deliveryFailed', { reason: outcome.replace(/^failed:\s*/, '') }) : t(`delivery_${outcome}`);
    return el('li', { className: `delivery-row${failed ? ' failed' : ''}` },
      el('span', { className: 'delivery-where', text: `${roomName} · #${seq} · ${formatDateTime(date)}` }),
      el('span', { className: 'delivery-outcome', text: result }));
  }

  async delete() {
    if (!window.confirm(t('confirmDeleteBot', { name: this.bot.username }))) return;
    await this.act(async () => {
      await this.integrations.deleteBot(this.bot.id);
      this.onDeleted(this.bot);
    });
  }

  /** Shows a secret the server gave once, in place of any shown before, with the focus on its Copy button. */
  showSecret(kind, label, value, warning) {
    replaceChildren(this.secret, secretOnce({ id: `bot-${kind}-${this.bot.username}`, label, value, warning }));
    this.secret.querySelector('button')?.focus();
  }

  /** Runs a request of this row; its refusal is said in the row (and `refocus` gets the focus back). */
  async act(request, refocus = null) {
    this.status.textContent = '';
    replaceChildren(this.secret);
    try {
      await request();
    } catch (error) {
      this.status.textContent = botErrorText(error);
      refocus?.focus();
    }
  }
}

/** Why a request about bots was refused, in words: `not_allowed` means a bot asked (§9.13). */
export function botErrorText(error) {
  return error.code === 'not_allowed' ? t('botsNotAllowed') : describeError(error);
}
