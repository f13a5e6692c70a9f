// 元素本身（www/element.js）：加载中、启动失败、首次访问时的选择，以及打不开的会话链接。
export default {
  'element.loading': '正在加载 broker 模型…',
  'element.fail': 'Playground 无法启动：{error}。',
  'element.fail.file': '从 file:// 打开的页面无法获取 .wasm：请通过 HTTP 提供这个目录，或者使用自包含的 purgatory-playground.html。',

  'element.thisSession': '这个会话',
  'element.inline': '内嵌的场景',
  'element.link': '链接',

  'welcome': '第一次来？可以从这里开始：',
  'welcome.story': '一段导览（S03，一分钟）',
  'welcome.article': '那篇文章',
  'welcome.drive': '或者自己动手',
  'welcome.hint': '试试看：暂停 broker 2 的拉取（fetch），发送一个 acks=all 请求，看它在炼狱里等待。立刻发送的话，它几乎总会在 30 秒后超时；在暂停 15 秒之后再发送，它会在 ISR 把 broker 2 移除时完成（就像场景 S03 那样）。也可以选一个场景。',

  'link.bad': '这个链接无法打开（{error}）',
  'link.noSuchScenario': '这个链接无法打开（它指向的场景“{name}”不存在）',
  'link.unknownScenario': '没有名为“{name}”的场景',
  'link.instead': '{problem}；改为显示一个实时会话。',
  'link.stays': '{problem}；当前会话保持不变。',
  'link.opened.scenario': '已打开链接：{name}，位于 {at} ms。',
  'link.opened': '已打开链接中的会话，位于 {at} ms。',
};
