// A chat's integrations, in its info, for its owner and moderators (and administrators): its incoming webhooks
// (PROTOCOL.md §9.14: made with a name, the secret URL shown once to copy, deleted once asked) and the bots among its
// members (§9.13: a bot joins as anyone does, invited by its username).
import { el, replaceChildren } from '../dom.js';
import { avatarElement, profileAvatar } from '../avatar.js';
import { describeError, t } from '../strings.js';
import { formatDateTime } from '../time.js';
import { secretOnce } from './secretOnce.js';

export class RoomIntegrations {
  constructor(client, roomID) {
    Object.assign(this, { client, roomID });
    this.integrations = client.integrations;
    this.nameInput = el('input', {
      type: 'text', id: 'webhook-name', className: 'text-input', autocomplete: 'off', required: true, maxlength: '64',
      'aria-label': t('webhookName'), placeholder: t('webhookName'), 'aria-describedby': 'webhooks-hint',
    });
    this.createButton = el('button', { type: 'submit', className: 'button primary', id: 'create-webhook', text: t('create') });
    this.status = el('p', { className: 'form-status', id: 'webhook-status', role: 'status' });
    this.created = el('div', { className: 'created-secret', id: 'webhook-created' });
    this.list = el('ul', { className: 'admin-list', id: 'room-webhooks', 'aria-labelledby': 'webhooks-title', tabindex: '-1' });
    this.bots = el('ul', { className: 'admin-list', id: 'room-bots', 'aria-labelledby': 'room-bots-title' });
    this.element = el('section', { className: 'room-integrations', id: 'room-integrations', 'aria-labelledby': 'integrations-title' },
      el('h3', { className: 'section-title', id: 'integrations-title', text: t('integrations') }),
      el('h4', { className: 'subsection-title', id: 'webhooks-title', text: t('incomingWebhooks') }),
      el('p', { className: 'group-note', id: 'webhooks-hint', text: t('incomingWebhooksHint') }),
      el('form', { className: 'inline-form-row', id: 'webhook-form', noValidate: true, on: { submit: (event) => this.create(event) } },
        this.nameInput, this.createButton),
      this.status,
      this.created,
      this.list,
      el('h4', { className: 'subsection-title', id: 'room-bots-title', text: t('roomBots') }),
      this.bots);
    this.load();
    this.loadBots();
  }

  async load() {
    try {
      const webhooks = await this.integrations.webhooks(this.roomID);
      replaceChildren(this.list, webhooks.length === 0
        ? el('li', { className: 'list-note', text: t('noWebhooks') })
        : webhooks.map((webhook) => this.webhookRow(webhook)));
    } catch (error) {
      replaceChildren(this.list, el('li', { className: 'list-note', text: webhookErrorText(error) }));
    }
  }

  webhookRow(webhook) {
    return el('li', { className: 'admin-row webhook-row', dataset: { webhookId: webhook.id } },
      el('span', { className: 'admin-row-main' },
        el('span', { className: 'admin-row-title' },
          el('span', { className: 'admin-row-name', text: webhook.name }),
          el('span', { className: 'sender-badge', text: t('badge_webhook') })),
        el('span', { className: 'admin-row-detail', text: t('webhookMade', { time: formatDateTime(webhook.createdAt) }) })),
      el('button', {
        type: 'button', className: 'link-button danger-link delete-webhook', text: t('deleteWebhook'),
        'aria-label': t('deleteWebhookNamed', { name: webhook.name }), on: { click: () => this.delete(webhook) },
      }));
  }

  /** Makes a webhook; its URL is shown under the form, once, with the focus on Copy. */
  async create(event) {
    event.preventDefault();
    const name = this.nameInput.value.trim();
    if (!name) {
      this.nameInput.focus();
      return;
    }
    this.status.textContent = '';
    replaceChildren(this.created);
    this.createButton.disabled = true;
    try {
      const webhook = await this.integrations.createWebhook(this.roomID, name);
      this.nameInput.value = '';
      replaceChildren(this.created, secretOnce({
        id: 'new-webhook-url', label: t('webhookAddress', { name: webhook.name }), value: webhook.url, warning: t('webhookCreated'),
      }));
      this.created.querySelector('button')?.focus();
      await this.load();
    } catch (error) {
      this.status.textContent = webhookErrorText(error);
      this.nameInput.focus();
    } finally {
      this.createButton.disabled = false;
    }
  }

  async delete(webhook) {
    if (!window.confirm(t('confirmDeleteWebhook', { name: webhook.name }))) return;
    this.status.textContent = '';
    try {
      await this.integrations.deleteWebhook(this.roomID, webhook.id);
      replaceChildren(this.created);
      this.status.textContent = t('webhookDeleted', { name: webhook.name });
      await this.load();
      this.list.focus();
    } catch (error) {
      this.status.textContent = webhookErrorText(error);
    }
  }

  /** The members whose profile says they are bots. */
  async loadBots() {
    try {
      const bots = (await this.client.roomMembers(this.roomID)).filter((profile) => profile.bot === true);
      replaceChildren(this.bots, bots.length === 0
        ? el('li', { className: 'list-note', text: t('noRoomBots') })
        : bots.map((bot) => el('li', { className: 'admin-row room-bot-row', dataset: { username: bot.username } },
          avatarElement(profileAvatar(bot)),
          el('span', { className: 'admin-row-main' },
            el('span', { className: 'admin-row-name', text: bot.displayName || bot.username }),
            el('span', { className: 'admin-row-detail', text: `@${bot.username}` })))));
    } catch (error) {
      replaceChildren(this.bots, el('li', { className: 'list-note', text: webhookErrorText(error) }));
    }
  }
}

/** Why a request about webhooks was refused, in words: `not_allowed` means I no longer moderate the chat (§9.14). */
function webhookErrorText(error) {
  return error.code === 'not_allowed' ? t('webhooksNotAllowed') : describeError(error);
}
