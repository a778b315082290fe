import ConnectCLI

await IFTTTConnectCommand.runMain()
