// Screens are addressed by the URL fragment, so the browser's Back button and reloads work:
//   #/chats  #/contacts  #/discover  #/me  #/chat/<room id>  #/chat/<room id>/<seq to show>

export const TABS = ['chats', 'contacts', 'discover', 'me'];

export function currentRoute() {
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (parts[0] === 'chat' && parts[1]) {
    const seq = Number(parts[2]);
    return { tab: 'chats', roomID: parts[1], focusSeq: Number.isInteger(seq) && seq > 0 ? seq : null };
  }
  return { tab: TABS.includes(parts[0]) ? parts[0] : 'chats', roomID: null, focusSeq: null };
}

export function navigate(path) {
  const hash = `#/${path}`;
  if (location.hash !== hash) location.hash = hash;
}

export function chatPath(roomID, focusSeq = null) {
  return `chat/${encodeURIComponent(roomID)}${focusSeq ? `/${focusSeq}` : ''}`;
}
