// 导览的框架（www/story.js）：讲到哪一步、各个按钮，以及最后一段说明之后的卡片。说明文字本身来自场景文件。
export default {
  'story.card': '导览',
  'story.intro': '导览 · 共 {count} 步',
  'story.progress': '第 {step} 步，共 {steps} 步 · {at} ms',
  'story.playingTo.progress': '正在播放到第 {step} 步（共 {steps} 步）· {at} ms',
  'story.playingTo': '正在播放到 {at} ms……（再按一次“下一步”可以直接跳过去）',
  'story.before': '还没到导览的第一个时刻。按“下一步”会播放到那里。',
  'story.after.progress': '导览之后 · {at} ms',
  'story.after': '导览已经讲完：运行会继续播放到结尾。拖动时间线，可以回头再看任何一个时刻。',
  'story.after.end.progress': '导览之后 · 运行结束于 {at} ms',
  'story.after.end': '导览已经讲完，场景也已运行到结尾。拖动时间线，可以回头再看任何一个时刻。',

  'story.back': '◀ 上一步',
  'story.next': '下一步 ▶',
  'story.playToTheEnd': '播放到结尾 ▶',
  'story.ownWhatIf': '这个导览讲的是本场景自带的假设：运行 B 重新按 {change} 运行。',
  'story.noSuchStep': '链接指向第 {step} 步，但这个故事只有 {steps} 步：从链接所指的时刻打开。',
  'story.stepElsewhere': '链接指向第 {step} 步（在 {stepAt} ms），但它的时刻是 {at} ms：从 {at} ms 打开。',
  'story.toTheEnd': '直接到结尾 ▶▶',
  'story.again': '再看一遍 ↺',
  'story.live': '作为实时会话继续',
  'story.close': '关闭导览',
};
