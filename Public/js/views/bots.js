// Me → Bots (PROTOCOL.md §9.13): making a bot (its token shown this once, to copy) and my bots, each with what can
// be done to it (botRow.js). A bot is an account for a program; it joins chats when someone invites it by username.
import { el, replaceChildren } from '../dom.js';
import { t } from '../strings.js';
import { BotRow, botErrorText } from './botRow.js';
import { secretOnce } from './secretOnce.js';

export class BotsView {
  constructor(client) {
    this.client = client;
    this.integrations = client.integrations;
    this.rows = [];
    this.usernameInput = el('input', {
      type: 'text', id: 'bot-username', className: 'text-input', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false',
      required: true, maxlength: '32', 'aria-label': t('botUsername'), placeholder: t('botUsername'), 'aria-describedby': 'bot-username-hint',
    });
    this.displayNameInput = el('input', {
      type: 'text', id: 'bot-display-name', className: 'text-input', maxlength: '64', 'aria-label': t('displayName'), placeholder: t('displayName'),
    });
    this.createButton = el('button', { type: 'submit', className: 'button primary', id: 'create-bot', text: t('create') });
    this.formStatus = el('p', { className: 'form-status', id: 'bot-form-status', role: 'status' });
    this.created = el('div', { className: 'created-secret', id: 'bot-created' });
    this.list = el('ul', { className: 'admin-list bot-list', id: 'bot-list', 'aria-labelledby': 'bots-title', tabindex: '-1' });
    this.listStatus = el('p', { className: 'list-note', id: 'bot-list-status', role: 'status' });
    this.form = el('form', {
      className: 'settings-group bot-create', id: 'bot-create-form', 'aria-labelledby': 'new-bot-title', noValidate: true,
      on: { submit: (event) => this.create(event) },
    },
    el('h2', { className: 'section-title', id: 'new-bot-title', text: t('newBot') }),
    el('p', { className: 'group-note', id: 'bot-username-hint', text: t('botsHint') }),
    el('div', { className: 'bot-fields' }, this.usernameInput, this.displayNameInput, this.createButton),
    this.formStatus,
    this.created);
    this.element = el('div', { className: 'me-view bots-view' },
      this.form,
      el('section', { className: 'settings-group', 'aria-labelledby': 'bots-title' },
        el('h2', { className: 'section-title', id: 'bots-title', text: t('bots') }),
        // What a webhook URL is for, said once for every bot's field (each field is described by it).
        el('p', { className: 'group-note', id: 'bot-webhook-hint', text: t('webhookURLHint') }),
        this.list,
        this.listStatus));
    this.load();
  }

  async load() {
    this.listStatus.textContent = t('loading');
    try {
      const bots = await this.integrations.bots();
      this.rows = bots.map((bot) => new BotRow(this.client, bot, { onDeleted: (deleted) => this.deleted(deleted) }));
      replaceChildren(this.list, this.rows.map((row) => row.element));
      this.listStatus.textContent = bots.length === 0 ? t('noBots') : '';
    } catch (error) {
      this.listStatus.textContent = botErrorText(error);
    }
  }

  /** Makes a bot; its token is shown under the form, once, with the focus on Copy. */
  async create(event) {
    event.preventDefault();
    const username = this.usernameInput.value.trim();
    if (!username) {
      this.usernameInput.focus();
      return;
    }
    this.formStatus.textContent = '';
    replaceChildren(this.created);
    this.createButton.disabled = true;
    try {
      const bot = await this.integrations.createBot(username, this.displayNameInput.value.trim());
      this.form.reset();
      this.formStatus.textContent = t('botCreated', { name: bot.username });
      replaceChildren(this.created, secretOnce({
        id: 'new-bot-token', label: t('botToken', { name: bot.username }), value: bot.token, warning: t('tokenShownOnce'),
      }));
      this.created.querySelector('button')?.focus();
      await this.load();
    } catch (error) {
      this.formStatus.textContent = botErrorText(error);
      this.usernameInput.focus();
    } finally {
      this.createButton.disabled = false;
    }
  }

  async deleted(bot) {
    await this.load();
    this.listStatus.textContent = t('botDeleted', { name: bot.username });
    this.list.focus();
  }

  destroy() {}
}
