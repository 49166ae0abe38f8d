/**
 * The words the pages show a player, in English and Chinese: plain sentences saying what
 * happened and what to do, never a bare code. `pageLanguage()` picks the language (`?lang=zh`
 * or `?lang=en` in the page URL, else the browser's), `words(lang)` the table, and
 * `markChinese(element, text)` fills an English page's element so that Chinese runs carry
 * `lang="zh-Hans"` (screen readers and fonts then treat them as Chinese).
 */

const EN = {
  connecting: 'Connecting…',
  reconnecting: (attempt) => (attempt > 0 ? `Reconnecting… (attempt ${attempt})` : 'Reconnecting…'),
  connectionLost: 'Connection lost. Trying again…',
  refused: 'This page may not connect to the game server from here. Ask whoever embedded it to allow this site, or open the game directly.',
  disconnected: 'Disconnected. Reload the page to play again.',
  estimate: '(estimate)',
  idle: 'Next rain soon',
  idleOffline: 'Next rain: unknown while offline',
  nextRain: (s) => `Next rain in ${s} s`,
  countdown: (s) => `Rain starts in ${s}`,
  getReady: 'Get ready',
  raining: 'Tap the red packets!',
  rainLeft: (s) => `Tap the red packets! ${s} s left`,
  results: 'Results',
  watching: 'watching',
  you: 'you',
  share: 'Share',
  shareLabel: 'Copy the link to this room',
  copied: 'Link copied — send it to a friend',
  copyFailed: (url) => `Copy this link: ${url}`,
  win: (coins) => `+${coins} 金币!`,
  lose: '旺旺年!人旺旺 (no coins in this one)',
  loseShort: '旺旺年!人旺旺',
  taken: 'Someone got it first',
  miss: 'Missed',
  capped: 'You have won all you can in this rain. Next rain soon!',
  tooSoon: 'Too quick! Tap a packet once you can see it.',
  rainStarts: 'The rain has started: tap the red packets!',
  rainEnds: (claimed, coins) => `The rain is over: ${claimed} packets claimed, ${coins} 金币 awarded.`,
  youWon: (coins, total) => `You won ${coins} 金币. Your total is ${total}.`,
  someoneWon: (name, coins) => `${name} +${coins} 金币`,
  errors: {
    bad_room: 'This room name is not valid. Use 1–32 letters, digits, _ or -, or open the rain from the app again.',
    unknown_scene: 'This game is not available on this server.',
    bad_role: 'This link is broken (the role must be player or spectator). Open the rain from the app again.',
    server_full: 'The game is full right now. We keep trying to get you in.',
    full: 'The game is full right now. We keep trying to get you in.',
    bad_token: 'Your sign-in was not accepted (it may have expired). Reopen the rain from the app.',
    token_required: 'Sign in from the app to play.',
    bad_player: 'Your saved guest id was not accepted; you play as a new guest.',
    host_limit: 'Too many connections from your network. Close other tabs of the rain and try again in a minute.',
    ledger_unavailable: 'That tap could not be recorded, so nothing was lost. Tap again.',
    rate_limited: 'Easy! Too many taps at once — slow down a little.',
    forbidden: 'You are watching; spectators cannot tap.',
    origin: 'This page may not connect to the game server from here. Ask whoever embedded it to allow this site, or open the game directly.',
  },
  errorFallback: 'Something went wrong. Reload the page if the game does not come back.',
  leaderboardLoading: 'Loading…',
  leaderboardMissing: 'The leaderboard is not available right now.',
  leaderboardEmpty: 'Nobody has won here yet.',
  notInTop: 'You are not in the top 10 yet.',
  summary: (claimed, packets, coins) => `${claimed}${packets === null ? '' : ` / ${packets}`} packets claimed · ${coins} 金币 awarded`,
  stopped: 'The organiser ended this rain early.',
  wonThisRain: (coins) => `You won ${coins} 金币 this rain!`,
  noCoins: 'No coins this time — next rain soon!',
  yourTotal: (total) => `Your total: ${total} 金币`,
  byYou: 'by you',
  byPlayer: 'by a player',
};

const ZH = {
  ...EN,
  connecting: '正在连接…',
  reconnecting: (attempt) => (attempt > 0 ? `正在重新连接…(第 ${attempt} 次)` : '正在重新连接…'),
  connectionLost: '连接已断开,正在重试…',
  refused: '此页面不能从这里连接游戏服务器。请让嵌入它的网站允许本站,或直接打开红包雨。',
  disconnected: '已断开。请刷新页面再玩。',
  estimate: '(估计)',
  idle: '下一场红包雨即将开始',
  idleOffline: '下一场时间未知(离线)',
  nextRain: (s) => `下一场红包雨 ${s} 秒后开始`,
  countdown: (s) => `红包雨 ${s} 秒后开始`,
  getReady: '准备',
  raining: '快点红包!',
  rainLeft: (s) => `快点红包!还剩 ${s} 秒`,
  results: '结果',
  watching: '观看中',
  you: '我',
  share: '分享',
  shareLabel: '复制本房间链接',
  copied: '链接已复制,发给朋友吧',
  copyFailed: (url) => `请复制链接:${url}`,
  lose: '旺旺年!人旺旺(这个没有金币)',
  taken: '被别人抢先了',
  miss: '没点中',
  capped: '本场你已领满,下一场再来!',
  tooSoon: '太快了!看到红包再点。',
  rainStarts: '红包雨开始了,快点红包!',
  rainEnds: (claimed, coins) => `红包雨结束:领取 ${claimed} 个红包,共 ${coins} 金币。`,
  youWon: (coins, total) => `你获得 ${coins} 金币,总计 ${total}。`,
  errors: {
    bad_room: '房间名无效。请用 1–32 个字母、数字、_ 或 -,或从应用重新打开。',
    unknown_scene: '此服务器上没有这个游戏。',
    bad_role: '链接有误。请从应用重新打开红包雨。',
    server_full: '现在人太多了,我们会继续为你排队。',
    full: '现在人太多了,我们会继续为你排队。',
    bad_token: '登录未被接受(可能已过期)。请从应用重新打开红包雨。',
    token_required: '请在应用中登录后再玩。',
    bad_player: '保存的游客身份无效,你将以新游客身份参加。',
    host_limit: '你的网络连接太多。请关闭其他红包雨页面,一分钟后再试。',
    ledger_unavailable: '这次点击没有记录上,没有任何损失。请再点一次。',
    rate_limited: '慢一点!点得太快了。',
    forbidden: '你在观看,观众不能点红包。',
    origin: '此页面不能从这里连接游戏服务器。请让嵌入它的网站允许本站,或直接打开红包雨。',
  },
  errorFallback: '出了点问题。如果游戏没有恢复,请刷新页面。',
  leaderboardLoading: '加载中…',
  leaderboardMissing: '排行榜暂时无法显示。',
  leaderboardEmpty: '这里还没有人获奖。',
  notInTop: '你还没有进入前 10 名。',
  summary: (claimed, packets, coins) => `领取 ${claimed}${packets === null ? '' : ` / ${packets}`} 个红包 · 共 ${coins} 金币`,
  stopped: '主办方提前结束了本场红包雨。',
  wonThisRain: (coins) => `本场你获得 ${coins} 金币!`,
  noCoins: '这次没有金币,下一场再来!',
  yourTotal: (total) => `你的总计:${total} 金币`,
  byYou: '(你)',
  byPlayer: '(其他玩家)',
};

/** `en` or `zh`: `?lang=` in the page URL, else the browser's first language. */
export function pageLanguage(search = location.search) {
  const asked = new URLSearchParams(search).get('lang') || navigator.language || 'en';
  return /^zh\b/i.test(asked) ? 'zh' : 'en';
}

/** The words of `lang` (`en` or `zh`). */
export function words(lang) {
  return lang === 'zh' ? ZH : EN;
}

/** The document's `lang` value for a page language. */
export function documentLanguage(lang) {
  return lang === 'zh' ? 'zh-Hans' : 'en';
}

const CJK_RUN = /([\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+)/u;

/**
 * Sets `element`'s text to `text`; on a page that is not Chinese, each run of Chinese
 * characters goes into a `<span lang="zh-Hans">`.
 */
export function markChinese(element, text) {
  const lang = document.documentElement.lang || 'en';
  if (/^zh/i.test(lang) || !CJK_RUN.test(text)) {
    element.textContent = text;
    return;
  }
  element.replaceChildren(...text.split(CJK_RUN).filter(Boolean).map((part) => {
    if (!CJK_RUN.test(part)) return document.createTextNode(part);
    const span = document.createElement('span');
    span.lang = 'zh-Hans';
    span.textContent = part;
    return span;
  }));
}
