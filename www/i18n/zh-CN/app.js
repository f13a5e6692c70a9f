// Playground 自己的通知（www/app.js）：模型停止、新的未来、导览关闭。
export default {
  'app.trap.opening': '打开时模型停止了',
  'app.gone': '打开时视图已被关闭',
  'app.trap': '模型因内部错误停止了。正在根据保存的操作重建这个会话…',
  'app.recovered': '已恢复：会话根据其操作重建，位于 {at} ms。没有丢失任何东西。',
  'app.notRecovered': '模型停止了，会话无法重建。请下载它以保存你的工作。',
  'app.forked': '{at} ms 之后的运行被丢弃了：这是一个新的未来。',
  'app.continuedLive': '场景已经结束；它作为实时会话继续运行。',
  'app.storyClosed': '导览已关闭：它讲的是场景本来的运行，而你的操作改变了它。“撤销”可以找回那次运行，点“导览”会重新开始讲解。',
  'app.futureBack': '被丢弃的未来回来了。',
};
